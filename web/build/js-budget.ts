// The first load of `/` must transfer under 300 KB of compressed JavaScript: the scripts and
// module preloads that index.html names. The build fails past it, and a test checks it too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotli, gzip } from './precompress.js';

export const FIRST_LOAD_JS_BUDGET_BYTES = 300 * 1024;

export interface FirstLoadJs {
  files: string[];
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

export function measureFirstLoadJs(outDir: string): FirstLoadJs {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const files = [...new Set([...html.matchAll(/(?:src|href)="\/([^"]+\.js)"/g)].map((m) => m[1]))];
  let rawBytes = 0;
  let gzipBytes = 0;
  let brotliBytes = 0;
  for (const file of files) {
    const bytes = readFileSync(join(outDir, file));
    rawBytes += bytes.length;
    gzipBytes += gzip(bytes).length;
    brotliBytes += brotli(bytes).length;
  }
  return { files, rawBytes, gzipBytes, brotliBytes };
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
