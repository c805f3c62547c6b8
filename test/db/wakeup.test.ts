// Wake-ups (src/db/wakeup*.ts). PostgreSQL: a notification sent inside a transaction reaches
// a listener on its own connection only when the transaction commits, never when it rolls
// back; a listening connection killed with pg_terminate_backend comes back by itself and
// makes every listener look once (notifications sent meanwhile were lost). SQLite: the
// in-process signal reaches the listeners of that kind only.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LocalWakeup } from '../../src/db/wakeup.js';
import { PgWakeup } from '../../src/db/wakeup-pg.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DATABASE_URL } from '../helpers/engine.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Other test files notify on the same database: a kind of our own.
const uniqueKind = () => `test.wakeup.${randomBytes(4).toString('hex')}`;

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL LISTEN/NOTIFY', () => {
  let wakeup: PgWakeup;
  const reports: string[] = [];
  beforeAll(() => {
    wakeup = new PgWakeup({ connectionString: TEST_DATABASE_URL as string, report: (error) => reports.push(error.message) });
  });
  afterAll(async () => {
    await wakeup?.close();
  });

  test('a notification is heard when its transaction commits, not before, and never when it rolls back', async () => {
    const kind = uniqueKind();
    let heard = 0;
    wakeup.subscribe(kind, () => heard++);
    await wakeup.listening();
    await sleep(50);
    heard = 0; // the look every listener gets when the connection starts listening

    await t.db.kysely.transaction().execute(async (trx) => {
      await t.db.wakeup.notify(trx, kind);
      await sleep(300);
      expect(heard).toBe(0);
    });
    await expect.poll(() => heard, { timeout: 2_000, interval: 5 }).toBe(1);

    await t.db.kysely
      .transaction()
      .execute(async (trx) => {
        await t.db.wakeup.notify(trx, kind);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await sleep(300);
    expect(heard).toBe(1);
  });

  test('a listening connection terminated by the server reconnects by itself, looks once, and hears later notifications', async () => {
    const kind = uniqueKind();
    let heard = 0;
    wakeup.subscribe(kind, () => heard++);
    await wakeup.listening();
    const before = wakeup.backendPid;
    expect(before).toBeTypeOf('number');
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const listed = await admin.query("select application_name, query from pg_stat_activity where pid = $1", [before]);
      expect(listed.rows[0]).toMatchObject({ application_name: `svc-wakeup:${process.pid}`, query: 'select pg_backend_pid() as pid' });
      await sleep(50);
      heard = 0;
      await admin.query('select pg_terminate_backend($1)', [before]);

      // Back, on a new server process, and every listener was called once for what it may have missed.
      await expect.poll(() => wakeup.backendPid !== undefined && wakeup.backendPid !== before, { timeout: 5_000 }).toBe(true);
      await expect.poll(() => heard, { timeout: 2_000 }).toBe(1);
      expect(reports.some((message) => message.includes('reconnecting'))).toBe(true);

      await t.db.kysely.transaction().execute((trx) => t.db.wakeup.notify(trx, kind));
      await expect.poll(() => heard, { timeout: 2_000, interval: 5 }).toBe(2);
    } finally {
      await admin.end();
    }
  });

  test('after close, nothing is heard and the connection is gone', async () => {
    const kind = uniqueKind();
    const own = new PgWakeup({ connectionString: TEST_DATABASE_URL as string, report: () => undefined });
    let heard = 0;
    own.subscribe(kind, () => heard++);
    await own.listening();
    const pid = own.backendPid;
    await own.close();
    heard = 0;
    await t.db.kysely.transaction().execute((trx) => t.db.wakeup.notify(trx, kind));
    await sleep(300);
    expect(heard).toBe(0);
    expect(own.backendPid).toBeUndefined();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await expect.poll(async () => (await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount, { timeout: 2_000 }).toBe(0);
    } finally {
      await admin.end();
    }
  });
});

describe.skipIf(!!TEST_DATABASE_URL)('SQLite in-process signal', () => {
  test('reaches the listeners of that kind at once, and no others; unsubscribed listeners hear nothing', async () => {
    const [kind, other] = [uniqueKind(), uniqueKind()];
    const wakeup = new LocalWakeup();
    const heard: string[] = [];
    const stop = wakeup.subscribe(kind, () => heard.push('kind'));
    wakeup.subscribe(other, () => heard.push('other'));
    await t.db.kysely.transaction().execute((trx) => t.db.wakeup.notify(trx, kind));
    expect(heard).toEqual(['kind']);
    stop();
    await t.db.kysely.transaction().execute((trx) => t.db.wakeup.notify(trx, kind));
    expect(heard).toEqual(['kind']);
  });
});
