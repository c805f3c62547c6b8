// A run queued by the API in one process starts on `svc worker` in another at once, woken by
// PostgreSQL LISTEN/NOTIFY, not at the run job's 2 s poll. The API side is the app `serve`
// builds, here with no workers of its own (as `serve` with RUN_WORKERS=false), so only the
// child can run anything. The device is started the same way (the child's lifecycle job).
// Prints the delay from the 201 to `running` for each run.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { createTestApp, type TestApp, type TestStorage } from '../../helpers/app.js';
import { ROOMY_LIMITS } from '../../helpers/code-sync.js';
import { TEST_DATABASE_URL } from '../../helpers/engine.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { databaseUrlFor, spawnSvc, type SvcProcess } from '../../helpers/svc-process.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';
import { removeTempDirs, tempDir } from './helpers/runner.js';

const SECRET_KEY = randomBytes(32).toString('hex');
const RUNS = 7;
let dir: string;
let t: TestApp & { storage: TestStorage };
let child: SvcProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-run-wakeup-'));
});
afterAll(async () => {
  await child?.stop();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
  removeTempDirs();
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL: a run queued through the API starts on `svc worker` in another process', () => {
  test(`${RUNS} runs each reach running well inside the 2 s poll`, async () => {
    t = await createTestApp({ env: { ...ROOMY_LIMITS, SECRET_KEY }, clock: new ManualClock(Date.now()) });
    const user = await signUp(t.app);
    const headers = withKey((await createKey(t.app, user, { scopes: ['macros:run', 'runs:read'] })).key);
    const device = (await createCloudDevice(t.app, user, { name: 'Far phone' })).id as number;
    const macro = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Quick', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'hi' }] } } });
    expect(macro.statusCode, macro.body).toBe(201);

    child = spawnSvc('worker', { SECRET_KEY, DATABASE_URL: databaseUrlFor(t.storage.pgSchema), DATA_DIR: dir, RUNS_DIR: tempDir(), SIM_BOOT_MS: '0', WEBHOOK_POLL_MS: '60000' });
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      // Ready when its wake-up connection listens (the last statement it runs on connecting).
      const listening = async () =>
        (await admin.query("select 1 from pg_stat_activity where application_name = $1 and state = 'idle' and query = 'select pg_backend_pid() as pid'", [`svc-wakeup:${child?.child.pid}`]))
          .rowCount;
      await expect.poll(listening, { timeout: 20_000, interval: 50 }).toBe(1);
    } finally {
      await admin.end();
    }
    // Let the looks it takes after connecting finish: from here on only a notification wakes it.
    await new Promise((resolve) => setTimeout(resolve, 2_500));

    const stateOf = async (id: number) => (await t.db.kysely.selectFrom('cloud_runs').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;
    const delays: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${device}/run`, headers, payload: { macro_id: macro.json().id } });
      const created = Date.now();
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id as number;
      // The first run also boots the device (stopped → ready by the child's lifecycle job).
      for (;;) {
        const state = await stateOf(id);
        if (state !== 'launching') break;
        expect(Date.now() - created, 'the run never left launching').toBeLessThan(15_000);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      delays.push(Date.now() - created);
      await expect.poll(() => stateOf(id), { timeout: 15_000, interval: 10 }).toBe('finished');
      // Let the worker go idle again before the next run, so each start needs a wake-up.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    process.stdout.write(`cross-process run wake-up (serve → worker, PostgreSQL): 201 → running in ${delays.join(', ')} ms; median ${median(delays)} ms (run poll 2000 ms)\n`);
    const device_ = await t.db.kysely.selectFrom('devices').select('hosted_state').where('id', '=', device).executeTakeFirstOrThrow();
    expect(device_.hosted_state).toBe('ready');
    // A poll alone would spread starts over 0-2 s; woken, every start after the boot is quick.
    expect(median(delays.slice(1))).toBeLessThan(500);
    expect(Math.max(...delays.slice(1))).toBeLessThan(1_500);
  }, 90_000);
});
