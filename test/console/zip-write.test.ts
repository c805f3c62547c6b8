// The zip the console builds from an authoring session's files (web/src/lib/zip-write.ts):
// the service's own zip reader takes it file for file, each with its content's hash. (That the
// page's worktree hash of it is the service's, the upload route checks in the e2e test: it
// refuses a mismatch.) zip-tree.ts needs DOM types, so it is not imported here.
import { expect, test } from 'vitest';
import { sha256Hex } from '../../src/modules/code-sync/hash.js';
import { readTree } from '../../src/modules/code-sync/tree.js';
import { buildZip, crc32 } from '../../web/src/lib/zip-write.js';

const FILES = [
  { path: 'main.py', content: 'import svc_device as d\nd.open_app("com.example.shop")\n' },
  { path: 'lib/ünïcode helpers.py', content: 'GREETING = "grüß dich"\n' },
  { path: 'empty.txt', content: '' },
];

test('crc32 is the zip checksum (the standard check value of "123456789")', () => {
  expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
});

test('the service reads the stored zip back file for file', async () => {
  const zip = buildZip(FILES.map((f) => ({ path: f.path, content: new TextEncoder().encode(f.content) })));
  const tree = await readTree(Buffer.from(zip), { maxFiles: 100, maxUncompressedBytes: 1 << 20 });
  expect(tree.map((f) => f.path).sort()).toEqual(FILES.map((f) => f.path).sort());
  for (const file of FILES) expect(tree.find((f) => f.path === file.path)?.sha256).toBe(sha256Hex(file.content));
});
