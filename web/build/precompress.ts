// Writes `.br` and `.gz` copies of the built text files next to them, so the server hands
// out compressed bytes without compressing on every request (@fastify/static `preCompressed`).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt', '.map']);

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

export const brotli = (bytes: Buffer): Buffer =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
export const gzip = (bytes: Buffer): Buffer => gzipSync(bytes, { level: 9 });

/** Compresses every compressible file in `outDir`; a copy that is not smaller is not written. */
export function precompress(outDir: string): number {
  let written = 0;
  for (const path of [...filesUnder(outDir)]) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    const bytes = readFileSync(path);
    for (const [suffix, compressed] of [['.br', brotli(bytes)], ['.gz', gzip(bytes)]] as const) {
      if (compressed.length < bytes.length) {
        writeFileSync(path + suffix, compressed);
        written++;
      }
    }
  }
  return written;
}
