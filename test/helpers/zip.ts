// Zips built in code for the code-sync tests. `buildZip` writes the format by hand, so a test
// controls what no well-behaved zip library would write: absolute and `..` names, duplicate
// entries, link and device modes, lying size headers, encryption flags.
import { once } from 'node:events';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { worktreeHash } from '../../src/modules/code-sync/hash.js';

export interface RawEntry {
  /** Written as-is (UTF-8). A trailing `/` makes a folder. */
  name: string;
  data?: Buffer | string;
  /** Unix mode, type and permissions (0o120777 is a symbolic link). Default: a regular file or folder. */
  mode?: number;
  /** 0 store, 8 deflate (default). */
  method?: number;
  /** The uncompressed size the headers claim (default: the real one). */
  declaredSize?: number;
  /** Extra general-purpose flag bits (1 = encrypted). */
  flags?: number;
  /** Data deflated elsewhere (too big to build in memory). */
  deflated?: DeflatedData;
}

export interface DeflatedData {
  data: Buffer;
  size: number;
  crc: number;
}

const DOS_DATE_1980_01_01 = 0x21;

export function buildZip(entries: readonly RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = Buffer.from(entry.data ?? '');
    const method = entry.deflated ? 8 : (entry.method ?? 8);
    const body = entry.deflated?.data ?? (method === 8 ? deflateRawSync(raw) : raw);
    const crc = entry.deflated?.crc ?? crc32(raw);
    const size = entry.declaredSize ?? entry.deflated?.size ?? raw.length;
    const flags = 0x800 | (entry.flags ?? 0); // bit 11: the name is UTF-8
    const mode = entry.mode ?? (entry.name.endsWith('/') ? 0o040755 : 0o100644);

    // The local and central headers share one run of fields (version needed to name
    // length); the central header has "version made by" before it.
    const shared = (buf: Buffer, at: number) => {
      buf.writeUInt16LE(20, at);
      buf.writeUInt16LE(flags, at + 2);
      buf.writeUInt16LE(method, at + 4);
      buf.writeUInt16LE(DOS_DATE_1980_01_01, at + 8);
      buf.writeUInt32LE(crc, at + 10);
      buf.writeUInt32LE(body.length, at + 14);
      buf.writeUInt32LE(size, at + 18);
      buf.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    parts.push(local, name, body);

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the mode below counts
    shared(header, 6);
    header.writeUInt32LE((mode << 16) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** `size` zero bytes, deflated a megabyte at a time: a zip bomb's payload without holding it. */
export async function deflatedZeros(size: number): Promise<DeflatedData> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const zeros = Buffer.alloc(1024 * 1024);
  let crc = 0;
  for (let left = size; left > 0; left -= zeros.length) {
    const part = left >= zeros.length ? zeros : zeros.subarray(0, left);
    crc = crc32(part, crc);
    if (!deflate.write(part)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return { data: Buffer.concat(chunks), size, crc };
}

/** The worktree hash of the files among `entries` (folders left out, as the rule says). */
export const hashOfEntries = (entries: readonly RawEntry[]) =>
  worktreeHash(entries.filter((e) => !e.name.endsWith('/')).map((e) => ({ path: e.name, content: Buffer.from(e.data ?? '') })));

/** A request body for these entries, with the right hash. */
export const snapshotBody = (entries: readonly RawEntry[], extra: { entry_path?: string } = {}) => ({
  zip_file_base64: buildZip(entries).toString('base64'),
  worktree_hash: hashOfEntries(entries),
  ...extra,
});
