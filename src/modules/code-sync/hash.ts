// The worktree hash (decisions.md §5), in one place: the server checks uploads with it and
// `svc code hash` / `svc code push` compute it, so the two cannot drift apart.
import { createHash } from 'node:crypto';

/** A file of the tree: its content, or the sha256 hex of its content when that is all we kept. */
export type HashInput = { path: string; content: Uint8Array | string } | { path: string; sha256: string };

export function sha256Hex(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Path order everywhere in code sync: by UTF-8 bytes, not JavaScript's UTF-16 order (they differ above U+FFFF). */
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * The manifest: one `<path>\0<sha256 hex of content>\n` line per file, sorted by path
 * (`comparePaths`). Paths are taken as
 * given: `/` separators, no leading `./`, directories omitted.
 */
export function manifestOf(files: readonly HashInput[]): Buffer {
  const lines = files.map((file) => ({
    path: Buffer.from(file.path, 'utf8'),
    digest: 'sha256' in file ? file.sha256 : sha256Hex(file.content),
  }));
  lines.sort((a, b) => Buffer.compare(a.path, b.path));
  return Buffer.concat(lines.flatMap(({ path, digest }) => [path, Buffer.from(`\0${digest}\n`, 'utf8')]));
}

/** `worktree_hash`: the lowercase sha256 hex of the manifest. */
export function worktreeHash(files: readonly HashInput[]): string {
  return sha256Hex(manifestOf(files));
}
