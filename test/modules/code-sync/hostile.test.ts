// Hostile and broken uploads: each answers 422 with a clear message and a `reason`, and
// leaves the macro exactly as it was (same current snapshot, no new rows).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { newSyncer, ROOMY_LIMITS, type Syncer } from '../../helpers/code-sync.js';
import { buildZip, deflatedZeros, hashOfEntries, type RawEntry, snapshotBody } from '../../helpers/zip.js';

const MiB = 1024 * 1024;
const GOOD: RawEntry[] = [{ name: 'main.py', data: 'print("ok")\n' }];

let t: TestApp;
let s: Syncer;
let goodHash: string;
beforeAll(async () => {
  t = await createTestApp({ env: ROOMY_LIMITS });
  s = await newSyncer(t.app);
  const res = await s.upload(snapshotBody(GOOD));
  expect(res.statusCode).toBe(201);
  goodHash = res.json().worktree_hash;
});
afterAll(() => t.close());

/** Uploads, expects a 422 with this reason, and checks that nothing changed. */
async function expectRefused(payload: unknown, reason: string, message?: RegExp) {
  const before = await t.db.kysely.selectFrom('code_snapshots').select('id').execute();
  const res = await s.upload(payload);
  expect(res.statusCode, res.body).toBe(422);
  const body = res.json();
  expect(body.details).toMatchObject({ code: 'validation_failed', reason });
  expect(body.details.errors).toHaveLength(1);
  if (message) expect(body.message).toMatch(message);
  expect(await t.db.kysely.selectFrom('code_snapshots').select('id').execute()).toEqual(before);
  expect((await s.state()).json().worktree_hash).toBe(goodHash);
  return body;
}

/** A body whose hash is right for `entries` (so only the hostile part can be refused). */
const bodyOf = (entries: RawEntry[]) => ({ zip_file_base64: buildZip(entries).toString('base64'), worktree_hash: hashOfEntries(entries) });

describe('the encoding', () => {
  const zip = buildZip(GOOD).toString('base64');
  test.each([
    ['a character outside the alphabet', `${zip.slice(0, 8)}*${zip.slice(9)}`],
    ['a line break', `${zip.slice(0, 8)}\n${zip.slice(8, -1)}`],
    ['a space', `${zip.slice(0, 8)} ${zip.slice(9)}`],
    ['the URL-safe alphabet', `${zip.slice(0, 8)}-_${zip.slice(10)}`],
    ['a missing padding', 'UEsFBg'],
    ['padding in the middle', 'UE==UEsF'],
  ])('invalid base64 (%s) is refused', async (_what, text) => {
    await expectRefused({ zip_file_base64: text, worktree_hash: hashOfEntries(GOOD) }, 'invalid_base64', /base64/);
  });

  test('a file that is not a zip is refused', async () => {
    await expectRefused({ zip_file_base64: Buffer.from('just some text, no zip here').toString('base64'), worktree_hash: 'a'.repeat(64) }, 'not_a_zip', /not a zip/);
  });

  test('a zip whose entry data is cut away is refused as damaged', async () => {
    const zip = buildZip([{ name: 'main.py', data: 'x'.repeat(5000), method: 0 }]);
    // Keep the local header's start and the central directory; the file data is gone.
    const cut = Buffer.concat([zip.subarray(0, 100), zip.subarray(zip.length - 22 - 53)]);
    await expectRefused({ zip_file_base64: cut.toString('base64'), worktree_hash: 'a'.repeat(64) }, 'damaged_zip', /damaged zip/);
  });

  test('a zip cut short (no end record) is not a zip', async () => {
    const zip = buildZip(GOOD);
    await expectRefused({ zip_file_base64: zip.subarray(0, zip.length - 10).toString('base64'), worktree_hash: 'a'.repeat(64) }, 'not_a_zip');
  });
});

describe('paths', () => {
  test.each([
    ['/etc/passwd', 'absolute_path'],
    ['C:/Windows/evil.py', 'absolute_path'],
    ['../escape.py', 'parent_segment'],
    ['src/../../escape.py', 'parent_segment'],
    ['src\\app.py', 'unsafe_path'],
    ['src//app.py', 'unsafe_path'],
    ['src/./app.py', 'unsafe_path'],
    ['bad\u0000name.py', 'unsafe_path'],
  ])('%j is refused (%s)', async (name, reason) => {
    const body = await expectRefused(bodyOf([...GOOD, { name, data: 'x = 1\n' }]), reason);
    expect(body.message).toContain(JSON.stringify(name));
  });

  test('a leading ./ is the same path, so "./main.py" and "main.py" are duplicates', async () => {
    await expectRefused(bodyOf([...GOOD, { name: './main.py', data: 'again\n' }]), 'duplicate_path', /two entries for the path "main\.py"/);
  });

  test('duplicate entry names are refused', async () => {
    await expectRefused(bodyOf([{ name: 'a.py', data: '1\n' }, { name: 'a.py', data: '2\n' }]), 'duplicate_path', /"a\.py"/);
  });

  test('a path that is both a file and a folder is refused', async () => {
    await expectRefused(bodyOf([{ name: 'lib', data: 'x\n' }, { name: 'lib/a.py', data: '1\n' }]), 'duplicate_path', /both as a file and as a folder/);
    await expectRefused(bodyOf([{ name: 'lib/a.py', data: '1\n' }, { name: 'lib', data: 'x\n' }]), 'duplicate_path');
    await expectRefused(bodyOf([{ name: 'lib/' }, { name: 'lib', data: 'x\n' }]), 'duplicate_path');
  });
});

describe('entry types', () => {
  test('a symbolic link is refused', async () => {
    await expectRefused(bodyOf([...GOOD, { name: 'secrets.py', data: '/etc/passwd', mode: 0o120777 }]), 'link', /symbolic link \("secrets\.py"\)/);
  });

  test.each([
    ['a character device', 0o020644],
    ['a block device', 0o060644],
    ['a fifo', 0o010644],
    ['a socket', 0o140755],
  ])('%s is refused', async (_what, mode) => {
    await expectRefused(bodyOf([...GOOD, { name: 'dev', mode }]), 'special_file', /device file or other special file/);
  });

  test('an encrypted entry and an unknown compression method are refused', async () => {
    await expectRefused(bodyOf([...GOOD, { name: 'locked.py', data: 'x', flags: 1 }]), 'unsupported_entry', /encrypted/);
    await expectRefused(bodyOf([...GOOD, { name: 'bz.py', data: 'x', method: 12 }]), 'unsupported_entry', /method 12/);
  });
});

describe('limits', () => {
  test('5,000 files are accepted; 5,001 are refused', async () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f/${i}.py`, data: `n = ${i}\n`, method: 0 }));
    const own = await newSyncer(t.app);
    const ok = await own.upload(bodyOf(files(5000)));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().file_count).toBe(5000);
    const body = await expectRefused(bodyOf(files(5001)), 'too_many_files', /more than 5000 files/);
    expect(body.details.limit).toBe(5000);
  });

  test('folders do not count as files', async () => {
    const own = await newSyncer(t.app);
    const entries = [...Array.from({ length: 10 }, (_, i) => ({ name: `d${i}/` })), { name: 'main.py', data: 'x\n' }];
    expect((await own.upload(bodyOf(entries))).json().file_count).toBe(1);
  });

  test('a zip bomb (one file of 101 MiB of zeros) is refused before inflating it, quickly and in bounded memory', async () => {
    const bomb = await deflatedZeros(101 * MiB);
    const payload = { zip_file_base64: buildZip([...GOOD, { name: 'bomb.py', deflated: bomb }]).toString('base64'), worktree_hash: 'a'.repeat(64) };
    expect(payload.zip_file_base64.length).toBeLessThan(MiB);
    const { peak, elapsed } = await measure(async () => {
      await expectRefused(payload, 'too_large_uncompressed', /more than 104857600 bytes uncompressed/);
    });
    expect(elapsed).toBeLessThan(5000);
    // Inflating it whole would take over 100 MiB (twice that as a string for the scanner).
    expect(peak).toBeLessThan(48 * MiB);
  });

  test('a bomb spread over many files is refused once the declared sizes add up past the limit', async () => {
    const part = await deflatedZeros(9 * MiB);
    const entries = Array.from({ length: 12 }, (_, i) => ({ name: `part${i}.bin`, deflated: part }));
    await expectRefused({ zip_file_base64: buildZip([...GOOD, ...entries]).toString('base64'), worktree_hash: 'a'.repeat(64) }, 'too_large_uncompressed');
  });

  test.each([
    ['small', 1000, /does not inflate to the size its header declares/],
    ['large', 2 * MiB, /too many bytes/],
  ])('a bomb whose headers lie about its size (%s claim) is stopped at the size it claims', async (_what, declaredSize, message) => {
    const bomb = await deflatedZeros(101 * MiB);
    const payload = { zip_file_base64: buildZip([...GOOD, { name: 'liar.py', deflated: bomb, declaredSize }]).toString('base64'), worktree_hash: 'a'.repeat(64) };
    const { peak, elapsed } = await measure(async () => {
      await expectRefused(payload, 'damaged_zip', message);
    });
    expect(elapsed).toBeLessThan(2000);
    expect(peak).toBeLessThan(48 * MiB);
  });

  test('an entry that inflates to less than its header claims is refused', async () => {
    await expectRefused(bodyOf([...GOOD, { name: 'short.py', data: 'x = 1\n', declaredSize: 500 }]), 'damaged_zip', /does not inflate to the size/);
    await expectRefused(bodyOf([...GOOD, { name: 'short.bin', data: 'x', declaredSize: 5 * MiB }]), 'damaged_zip', /not enough bytes/);
  });

  test('100 MiB uncompressed is accepted, with a large_file warning', async () => {
    const own = await newSyncer(t.app);
    const zeros = await deflatedZeros(100 * MiB - 100);
    const entries: RawEntry[] = [{ name: 'main.py', data: 'x = 1\n' }, { name: 'data.bin', deflated: zeros }];
    const payload = {
      zip_file_base64: buildZip(entries).toString('base64'),
      worktree_hash: hashOfEntries([{ name: 'main.py', data: 'x = 1\n' }, { name: 'data.bin', data: Buffer.alloc(100 * MiB - 100) }]),
    };
    const res = await own.upload(payload);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().size_bytes).toBe(100 * MiB - 94);
    expect(res.json().warnings).toContainEqual({ code: 'large_file', message: expect.stringContaining('1 MiB'), path: 'data.bin' });
  });
});

describe('the entry file', () => {
  test('a zip without a .py file is refused', async () => {
    await expectRefused(bodyOf([{ name: 'README.md', data: '# hi\n' }]), 'no_python_file', /no \.py file/);
  });

  test('an entry_path that is not in the zip is refused', async () => {
    const body = await expectRefused({ ...bodyOf(GOOD), entry_path: 'src/app.py' }, 'entry_not_found');
    expect(body.details.errors[0].path).toBe('body.entry_path');
  });
});

/** Peak growth of the process's resident memory while `run` runs, sampled every 5 ms. */
async function measure(run: () => Promise<void>): Promise<{ peak: number; elapsed: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss - base);
  }, 5);
  const started = Date.now();
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage().rss - base);
  return { peak, elapsed: Date.now() - started };
}
