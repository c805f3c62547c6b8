// Reads an uploaded zip in memory with yauzl, one entry at a time, and never writes to disk.
// Everything hostile is refused before or while it is inflated: unsafe names, links and
// device files, too many files, and more uncompressed bytes than allowed. The byte limit
// holds because of two checks together: the sizes the headers declare are added up before
// each entry inflates, and no entry may inflate past its declared size (zlib's output cap
// for small entries, yauzl's byte count while streaming large ones). A zip bomb is therefore
// stopped before or during inflation, never after, and memory stays bounded.
import { inflateRawSync } from 'node:zlib';
import yauzl, { type Entry, type ExtraField } from 'yauzl';
import { zipRefused } from './errors.js';
import { checkEntryName, TreeIndex } from './paths.js';
import { messageOf } from '../../lib/error-message.js';

declare module 'yauzl' {
  // Documented in yauzl's README; missing from @types/yauzl.
  export function getFileNameLowLevel(generalPurposeBitFlag: number, fileNameBuffer: Buffer, extraFields: ExtraField[], strictFileNames: boolean): string;
}

export interface ZipLimits {
  maxFiles: number;
  maxUncompressedBytes: number;
}

/** Called once per file, in zip order; must consume `data` (or throw). */
export type FileVisitor = (path: string, data: AsyncIterable<Buffer>) => Promise<void>;

// The file type bits of a Unix mode, which zip tools store in the high 16 bits of the
// external attributes. 0 means "not recorded" (DOS and most Windows tools).
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

function checkFileType(entry: Entry, path: string, isDirectory: boolean): void {
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (type === 0 || type === (isDirectory ? S_IFDIR : S_IFREG)) return;
  if (type === S_IFLNK) throw zipRefused('link', `has a symbolic link (${JSON.stringify(path)}); only files and folders are accepted`);
  throw zipRefused('special_file', `has a device file or other special file (${JSON.stringify(path)}); only files and folders are accepted`);
}

function checkEncoding(entry: Entry, path: string): void {
  if (entry.isEncrypted()) throw zipRefused('unsupported_entry', `has an encrypted entry (${JSON.stringify(path)})`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw zipRefused('unsupported_entry', `has an entry compressed with method ${entry.compressionMethod} (${JSON.stringify(path)}); use deflate or store`);
  }
}

/**
 * Entries up to this size are inflated in one synchronous call, capped at the size their
 * header declares; larger ones stream. Most project files are small, and a zlib stream per
 * file costs thread-pool round trips that dominated the time to read 2,000 of them.
 */
const INFLATE_AT_ONCE_BYTES = 1024 * 1024;

const tooLarge = (limits: ZipLimits) =>
  zipRefused('too_large_uncompressed', `holds more than ${limits.maxUncompressedBytes} bytes uncompressed`, { limit: limits.maxUncompressedBytes });

const damaged = (error: unknown) => zipRefused('damaged_zip', `is a damaged zip (${messageOf(error)})`);

/** What yauzl or zlib reject while reading is a damaged zip, said in our words. */
async function orDamaged<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw damaged(error);
  }
}

export async function readZipFiles(zip: Buffer, limits: ZipLimits, visit: FileVisitor): Promise<void> {
  let zipfile: yauzl.ZipFile;
  try {
    // decodeStrings: false, so names come to our own checks (with our messages) undecoded.
    // validateEntrySizes is load-bearing: it stops a streamed entry at its declared size.
    zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true });
  } catch {
    throw zipRefused('not_a_zip', 'is not a zip file');
  }
  const tree = new TreeIndex();
  let files = 0;
  let declaredBytes = 0;
  const entries = zipfile.eachEntry();
  try {
    for (let next = await orDamaged(entries.next()); !next.done; next = await orDamaged(entries.next())) {
      const entry = next.value;
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      const { path, isDirectory } = checkEntryName(name);
      checkFileType(entry, path, isDirectory);
      if (isDirectory) {
        tree.addFolder(path);
        continue;
      }
      tree.addFile(path);
      files += 1;
      if (files > limits.maxFiles) throw zipRefused('too_many_files', `holds more than ${limits.maxFiles} files`, { limit: limits.maxFiles });
      checkEncoding(entry, path);
      declaredBytes += entry.uncompressedSize;
      if (declaredBytes > limits.maxUncompressedBytes) throw tooLarge(limits);
      await visit(path, data(entry, path));
    }
  } finally {
    zipfile.close();
  }

  async function* data(entry: Entry, path: string): AsyncGenerator<Buffer> {
    if (entry.uncompressedSize <= INFLATE_AT_ONCE_BYTES) {
      yield await atOnce(entry, path);
      return;
    }
    const stream = await orDamaged(zipfile.openReadStreamPromise(entry));
    try {
      const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      for (let next = await orDamaged(chunks.next()); !next.done; next = await orDamaged(chunks.next())) yield next.value;
    } finally {
      // Stops inflating at once when the entry is refused or the visitor gives up early.
      stream.destroy();
    }
  }

  async function atOnce(entry: Entry, path: string): Promise<Buffer> {
    let content: Buffer;
    try {
      const { fileDataStart } = await zipfile.readLocalFileHeaderPromise(entry, { minimal: true });
      const raw = zip.subarray(fileDataStart, fileDataStart + entry.compressedSize);
      // The cap makes zlib stop at the declared size, so a lying header cannot inflate more.
      content = entry.compressionMethod === 0 ? raw : inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw sizeLie(path);
      throw damaged(error);
    }
    if (content.length !== entry.uncompressedSize) throw sizeLie(path);
    return content;
  }
}

const sizeLie = (path: string) => damaged(new Error(`${JSON.stringify(path)} does not inflate to the size its header declares`));
