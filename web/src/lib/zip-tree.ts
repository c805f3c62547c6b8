// Reads a zip the person picked, in the browser, far enough to compute its worktree hash
// (docs/code-sync.md): the upload route needs the hash beside the zip and refuses a mismatch.
// No zip library is bundled (the root has only Node's yauzl/yazl), so this reads the central
// directory itself and inflates with the browser's DecompressionStream. It does not judge the
// zip: unsafe names, links and sizes are the server's to refuse, in its own words.

export class ZipReadError extends Error {}

export interface ZipTree {
  /** The hash the server will compute from the same bytes. */
  worktreeHash: string;
  files: { path: string; size: number }[];
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function findEndOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
  const lowest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let at = view.byteLength - 22; at >= lowest; at--) if (view.getUint32(at, true) === EOCD) return at;
  throw new ZipReadError('This file is not a zip (no central directory found).');
}

async function inflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const hex = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

async function sha256Hex(data: Uint8Array): Promise<string> {
  if (!globalThis.crypto?.subtle) throw new ZipReadError('This browser cannot compute SHA-256 here: open the console over HTTPS (or on localhost).');
  return hex(await crypto.subtle.digest('SHA-256', data as BufferSource));
}

/** Path order of the manifest: by UTF-8 bytes, which is not JavaScript's UTF-16 `<` above U+FFFF. */
function compareUtf8(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

export async function readZipTree(zip: Uint8Array): Promise<ZipTree> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  if (zip.byteLength < 22) throw new ZipReadError('This file is too short to be a zip.');
  const end = findEndOfCentralDirectory(view);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw new ZipReadError('ZIP64 archives are not read here; the service takes zips up to 10 MiB.');
  const utf8 = new TextDecoder('utf-8', { fatal: false });
  const encoder = new TextEncoder();
  const lines: { path: Uint8Array; digest: string }[] = [];
  const files: ZipTree['files'] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.byteLength || view.getUint32(at, true) !== CENTRAL) throw new ZipReadError('The zip is damaged (its central directory is cut short).');
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const localAt = view.getUint32(at + 42, true);
    let path = utf8.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at = next;
    // Folders are not in the manifest; names are taken as the server takes them.
    if (path.endsWith('/')) continue;
    while (path.startsWith('./')) path = path.slice(2);
    if (localAt + 30 > zip.byteLength || view.getUint32(localAt, true) !== LOCAL) throw new ZipReadError(`The zip is damaged (the entry ${JSON.stringify(path)} cannot be found).`);
    const dataAt = localAt + 30 + view.getUint16(localAt + 26, true) + view.getUint16(localAt + 28, true);
    const raw = zip.subarray(dataAt, dataAt + compressedSize);
    let content: Uint8Array;
    if (method === 0) content = raw;
    else if (method === 8) content = await inflateRaw(raw).catch(() => { throw new ZipReadError(`The zip is damaged (${JSON.stringify(path)} does not inflate).`); });
    else throw new ZipReadError(`${JSON.stringify(path)} is compressed with method ${method}; zips made with deflate or store are accepted.`);
    lines.push({ path: encoder.encode(path), digest: await sha256Hex(content) });
    files.push({ path, size: content.byteLength });
  }
  lines.sort((a, b) => compareUtf8(a.path, b.path));
  const parts = lines.flatMap(({ path, digest }) => [path, encoder.encode(`\0${digest}\n`)]);
  const manifest = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    manifest.set(part, offset);
    offset += part.byteLength;
  }
  return { worktreeHash: await sha256Hex(manifest), files };
}

/** Standard padded base64, in chunks (spreading 10 MiB into one call would overflow the stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
