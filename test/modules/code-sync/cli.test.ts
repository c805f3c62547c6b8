// `svc code hash` and `svc code push` as a user runs them: the real binary (dist/) against
// a server listening on 127.0.0.1; and snapshots read by a second process on PostgreSQL.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import yauzl from 'yauzl';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { worktreeHash } from '../../../src/modules/code-sync/hash.js';
import { createTestApp, type TestApp, type TestStorage } from '../../helpers/app.js';
import { newSyncer, ROOMY_LIMITS, type Syncer } from '../../helpers/code-sync.js';
import { TEST_DATABASE_URL } from '../../helpers/engine.js';
import { snapshotBody } from '../../helpers/zip.js';

const run = promisify(execFile);
const INCLUDED: Record<string, string> = {
  'src/app.py': 'import tool\nLOGO = "img_00000000000000aa"\n',
  'lib/helpers.py': 'def f():\n    return 1\n',
  'tool.sh': '#!/bin/sh\necho hi\n',
  'docs/notes.txt': 'notes\n',
};
const LEFT_OUT: Record<string, string> = {
  '.env': 'SECRET=1\n',
  '.git/config': '[core]\n',
  'src/.hidden.py': 'x = 1\n',
  '__pycache__/app.cpython-312.pyc': 'compiled',
  'lib/__pycache__/helpers.pyc': 'compiled',
  'node_modules/left-pad/index.js': 'module.exports = 1\n',
};

let t: TestApp & { storage: TestStorage };
let s: Syncer;
let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  t = await createTestApp({ env: ROOMY_LIMITS });
  s = await newSyncer(t.app);
  dir = mkdtempSync(join(tmpdir(), 'svc-code-'));
  for (const [path, content] of Object.entries({ ...INCLUDED, ...LEFT_OUT })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  chmodSync(join(dir, 'tool.sh'), 0o755);
  symlinkSync(join(dir, 'src/app.py'), join(dir, 'link.py'));
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // Vitest sets BASE_URL=/ for Vite; the child gets exactly the settings it needs.
  env = { ...process.env, BASE_URL: '', DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '', SVC_BASE_URL: address, SVC_API_KEY: s.key };
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

const svc = (args: string[], extra: NodeJS.ProcessEnv = {}) => run('node', ['dist/main.js', ...args], { env: { ...env, ...extra } });
const failure = (promise: Promise<unknown>) => promise.then(() => ({ code: 0, stderr: '' })).catch((e: { code: number; stderr: string }) => e);
const expectedHash = () => worktreeHash(Object.entries(INCLUDED).map(([path, content]) => ({ path, content })));

describe('svc code hash', () => {
  test('prints the hash of the files push would upload: dotfiles, caches, node_modules and links left out', async () => {
    const { stdout, stderr } = await svc(['code', 'hash', dir]);
    expect(stdout).toBe(`${expectedHash()}\n`);
    expect(stderr).toContain('skipped link.py');
  });

  test('a missing directory is a one-line error', async () => {
    const result = await failure(svc(['code', 'hash', join(dir, 'nope')]));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Cannot read .*nope: ENOENT/);
  });
});

describe('svc code push', () => {
  test('uploads the tree and prints the answer; an unchanged tree pushed again prints created: false', async () => {
    const first = await svc(['code', 'push', dir, '--macro', String(s.macroId)]);
    const answer = parse(first.stdout);
    expect(answer).toMatchObject({ worktree_hash: expectedHash(), entry_path: 'src/app.py', entry_kind: 'python', image_ids: ['img_00000000000000aa'], file_count: 4, created: true });
    expect(answer.warnings.map((w: { code: string }) => w.code)).toEqual(['entry_defaulted', 'unknown_image']);
    const second = await svc(['code', 'push', dir, '--macro', String(s.macroId)]);
    expect(second.stdout).toMatch(/^created: false$/m);
    expect((await s.state()).json()).toMatchObject({ worktree_hash: expectedHash(), file_count: 4 });
  });

  test('--entry chooses the entry file', async () => {
    const res = parse((await svc(['code', 'push', dir, '--macro', String(s.macroId), '--entry', 'lib/helpers.py'])).stdout);
    expect(res).toMatchObject({ entry_path: 'lib/helpers.py', created: false });
    expect(res.warnings.map((w: { code: string }) => w.code)).toEqual(['unknown_image']);
  });

  test('the zip keeps the executable bit and holds only the included files', async () => {
    const row = await t.db.kysely.selectFrom('code_snapshots as c').innerJoin('code_blobs as b', 'b.sha256', 'c.zip_sha256').select('b.zip').where('c.macro_id', '=', s.macroId).executeTakeFirstOrThrow();
    const zip = await yauzl.fromBufferPromise(Buffer.from(row.zip), { lazyEntries: true });
    const modes: Record<string, number> = {};
    for await (const entry of zip.eachEntry()) modes[entry.fileName] = entry.externalFileAttributes >>> 16;
    expect(Object.keys(modes).sort()).toEqual(Object.keys(INCLUDED).sort());
    expect(modes['tool.sh']).toBe(0o100755);
    expect(modes['src/app.py'] & 0o111).toBe(0);
  });

  test('a refusal, a wrong key or no key is a one-line error with exit status 1', async () => {
    const block = (await t.app.inject({ method: 'POST', url: '/api/macros', headers: s.user.auth, payload: { name: 'b', kind: 'block' } })).json();
    const refused = await failure(svc(['code', 'push', dir, '--macro', String(block.id)]));
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/^404 not_found: .*block macro/m)]);
    const wrong = await failure(svc(['code', 'push', dir, '--macro', String(s.macroId)], { SVC_API_KEY: `svc_${'0'.repeat(48)}` }));
    expect([wrong.code, wrong.stderr]).toEqual([1, expect.stringMatching(/^401 invalid_api_key/m)]);
    const none = await failure(svc(['code', 'push', dir, '--macro', String(s.macroId)], { SVC_API_KEY: '' }));
    expect([none.code, none.stderr]).toEqual([1, expect.stringMatching(/^Set SVC_API_KEY to an API key with the macros:run scope\.$/m)]);
    const usage = await failure(svc(['code', 'push', dir]));
    expect([usage.code, usage.stderr]).toEqual([1, expect.stringMatching(/^Usage: svc code/)]);
  });
});

describe('settings', () => {
  test('SVC_BASE_URL defaults to BASE_URL; SVC_API_KEY must be a whole key and is never echoed', () => {
    expect(loadConfig({ BASE_URL: 'https://a.example/' })).toMatchObject({ svcBaseUrl: 'https://a.example', svcApiKey: undefined });
    expect(loadConfig({ SVC_BASE_URL: 'http://b.example:9/' }).svcBaseUrl).toBe('http://b.example:9');
    expect(() => loadConfig({ SVC_BASE_URL: 'ftp://b.example' })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_API_KEY: 'svc_secret-but-short' })).toThrow(/^Invalid setting SVC_API_KEY: must be a whole API key/);
    expect(() => loadConfig({ SVC_API_KEY: 'svc_secret-but-short' })).not.toThrow(/secret-but-short/);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('two processes on one PostgreSQL database', () => {
  test('a snapshot uploaded through one is the current one for the other', async () => {
    const other = await createTestApp({ env: ROOMY_LIMITS, shareWith: t.storage, clock: t.clock });
    try {
      const body = snapshotBody([{ name: 'main.py', data: 'print("shared")\n' }]);
      expect((await s.upload(body)).statusCode).toBe(201);
      const res = await other.app.inject({ url: `/api/macros/${s.macroId}/code-state`, headers: { 'x-api-key': s.key } });
      expect(res.json().worktree_hash).toBe(body.worktree_hash);
      const row = await other.db.kysely.selectFrom('code_snapshots as c').innerJoin('code_blobs as b', 'b.sha256', 'c.zip_sha256').select('b.zip').where('c.worktree_hash', '=', body.worktree_hash).executeTakeFirstOrThrow();
      expect(Buffer.from(row.zip).equals(Buffer.from(body.zip_file_base64, 'base64'))).toBe(true);
    } finally {
      await other.close();
    }
  });
});
