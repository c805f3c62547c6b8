// What the service learns from an uploaded zip in one streaming pass: each file's path, size
// and sha256 (for the worktree hash), and the image references of its `.py` files. File
// contents are hashed and scanned as they inflate and then dropped; nothing is kept whole.
import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { ImageIdScanner, type ImageRef } from './images.js';
import { readZipFiles, type ZipLimits } from './zip-reader.js';

export interface TreeFile {
  path: string;
  size: number;
  sha256: string;
  /** `.py` files only. */
  imageRefs?: ImageRef[];
}

export async function readTree(zip: Buffer, limits: ZipLimits): Promise<TreeFile[]> {
  const files: TreeFile[] = [];
  await readZipFiles(zip, limits, async (path, data) => {
    const hash = createHash('sha256');
    const python = path.endsWith('.py') ? { scanner: new ImageIdScanner(), decoder: new StringDecoder('utf8') } : undefined;
    let size = 0;
    for await (const chunk of data) {
      hash.update(chunk);
      size += chunk.length;
      python?.scanner.push(python.decoder.write(chunk));
    }
    if (python) {
      python.scanner.push(python.decoder.end());
      python.scanner.end();
    }
    files.push({ path, size, sha256: hash.digest('hex'), ...(python ? { imageRefs: python.scanner.refs } : {}) });
  });
  return files;
}
