// The project tree as `svc code push` uploads it and `svc code hash` hashes it: one walk, so
// the two always agree. Included: regular files under DIR. Skipped: every name starting with
// `.` (.git, .venv, .env and other secrets, editor folders), `__pycache__` and `node_modules`
// folders, and anything that is not a regular file or folder (links, sockets, devices).
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yazl from 'yazl';
import { comparePaths } from './hash.js';

const SKIPPED_FOLDERS = new Set(['__pycache__', 'node_modules']);
/** Zip timestamps carry no meaning here; a fixed one makes the same tree give the same zip. */
const ZIP_MTIME = new Date(Date.UTC(2000, 0, 1));

export interface WorktreeFile {
  /** Relative to the tree's root, `/`-separated. */
  path: string;
  content: Buffer;
  /** Permission bits (the executable bit survives the trip). */
  permissions: number;
}

export interface Worktree {
  files: WorktreeFile[];
  /** Paths left out because they are neither files nor folders, to tell the user. */
  skipped: string[];
}

export class WorktreeError extends Error {}

export async function readWorktree(root: string): Promise<Worktree> {
  const files: WorktreeFile[] = [];
  const skipped: string[] = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = `${prefix}${entry.name}`;
      if (entry.name.includes('\\')) throw new WorktreeError(`${path}: a name with a backslash cannot go into a zip; rename it`);
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await walk(full, `${path}/`);
      } else if (entry.isFile()) {
        const [content, stats] = await Promise.all([readFile(full), lstat(full)]);
        files.push({ path, content, permissions: stats.mode & 0o777 });
      } else {
        skipped.push(path);
      }
    }
  };
  try {
    await walk(root, '');
  } catch (error) {
    if (error instanceof WorktreeError) throw error;
    throw new WorktreeError(`Cannot read ${root}: ${(error as Error).message}`);
  }
  files.sort((a, b) => comparePaths(a.path, b.path));
  return { files, skipped };
}

export async function zipWorktree(files: readonly WorktreeFile[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const file of files) zip.addBuffer(file.content, file.path, { mtime: ZIP_MTIME, mode: 0o100000 | file.permissions });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
