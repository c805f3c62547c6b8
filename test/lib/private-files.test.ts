// DATA_DIR, secret.key and the SQLite files are for the service's user alone (a cloud run runs
// as another user): made 0700/0600 whatever the umask, and tightened when an install left them open.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ensureSecretKey, loadConfig } from '../../src/config.js';
import { openDatabase, sqliteFileIn } from '../../src/db/database.js';

const mode = (path: string) => statSync(path).mode & 0o777;
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const parent = mkdtempSync(join(tmpdir(), 'svc-private-'));
  made.push(parent);
  return join(parent, 'data');
}

describe("the service's own files", () => {
  test('a new DATA_DIR is 0700, with secret.key and the SQLite database, -wal and -shm 0600, even under umask 000', async () => {
    const dir = dataDir();
    const umask = process.umask(0);
    try {
      ensureSecretKey(loadConfig({ DATA_DIR: dir }));
      const db = openDatabase({ sqliteFile: sqliteFileIn(dir) });
      await db.kysely.schema.createTable('t').addColumn('x', 'text').execute();
      expect(mode(dir)).toBe(0o700);
      for (const name of ['secret.key', 'service.sqlite', 'service.sqlite-wal', 'service.sqlite-shm']) expect(mode(join(dir, name)), name).toBe(0o600);
      await db.close();
    } finally {
      process.umask(umask);
    }
  });

  test('an install that left them open is tightened; the key and the data are kept', () => {
    const dir = dataDir();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o775);
    for (const name of ['service.sqlite', 'service.sqlite-wal', 'service.sqlite-shm']) writeFileSync(join(dir, name), '', { mode: 0o666 });
    writeFileSync(join(dir, 'secret.key'), `${'cd'.repeat(32)}\n`);
    chmodSync(join(dir, 'secret.key'), 0o644);
    expect(ensureSecretKey(loadConfig({ DATA_DIR: dir })).toString('hex')).toBe('cd'.repeat(32));
    expect(sqliteFileIn(dir)).toBe(join(dir, 'service.sqlite'));
    expect(mode(dir)).toBe(0o700);
    for (const name of ['secret.key', 'service.sqlite', 'service.sqlite-wal', 'service.sqlite-shm']) expect(mode(join(dir, name)), name).toBe(0o600);
  });
});
