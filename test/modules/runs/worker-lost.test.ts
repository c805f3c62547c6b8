// A worker killed with SIGKILL mid-run (the real binary, `node dist/main.js worker`, in a
// child process): its lease runs out, and another worker ends the run failed, "worker lost",
// with its history record and event, never running it again. The run's token goes with it,
// so the macro process the dead worker left behind can no longer drive the device, and stops.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { SimHost } from '../../../src/modules/devices/hosts/index.js';
import { buildRunsModule } from '../../../src/modules/runs/index.js';
import { bootOnHost } from './helpers/boot-on-host.js';
import { newStorage } from '../../helpers/app.js';
import { TEST_DATABASE_URL } from '../../helpers/engine.js';
import { databaseUrlFor, spawnSvc, type SvcProcess } from '../../helpers/svc-process.js';
import { cloudDevice, type CloudWorld, cloudWorld, codeMacro, logLines, silentLog, startRun } from './helpers/cloud-world.js';
import { removeTempDirs, tempDir } from './helpers/runner.js';

const SECRET_KEY = randomBytes(32).toString('hex');
let dir: string;
let w: CloudWorld;
let child: SvcProcess | undefined;
let orphan: number | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-worker-lost-'));
  // SQLite: one database file both processes open; PostgreSQL: the test's own schema.
  w = await cloudWorld({ env: { SECRET_KEY }, ...(TEST_DATABASE_URL ? {} : { shareWith: { ...newStorage(), sqliteFile: join(dir, 'service.sqlite') } }) });
});
afterAll(async () => {
  child?.kill();
  if (orphan !== undefined && alive(orphan)) process.kill(orphan, 'SIGKILL');
  await w.close();
  rmSync(dir, { recursive: true, force: true });
  removeTempDirs();
});

/** The host's pid of the run's `python3 main.py` (inside its sandbox the macro sees another). */
function macroProcess(executionId: string): number {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      if (environ.includes(`SVC_EXECUTION_ID=${executionId}`) && readFileSync(`/proc/${pid}/cmdline`, 'latin1') === 'python3\0main.py\0') return Number(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  throw new Error(`no process runs ${executionId}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('a run whose worker was killed ends failed, "worker lost", by another worker; the device stays ready', async () => {
  const macroId = await codeMacro(w, {
    'main.py': 'import os, time, svc_device as d\nprint("started", flush=True)\nfor i in range(600):\n    d.current_app()\n    print("tick", i, flush=True)\n    time.sleep(0.05)',
  });
  const deviceId = await cloudDevice(w);
  // Queued first: the child claims it as it starts (its log goes to stdout, which it keeps).
  const run = await startRun(w, deviceId, { macro_id: macroId });
  child = spawnSvc('worker', {
    SECRET_KEY,
    DATA_DIR: dir,
    DATABASE_URL: databaseUrlFor(w.t.storage.pgSchema),
    BASE_URL: w.baseUrl,
    RUNS_DIR: tempDir(),
    SIM_BOOT_MS: '0',
    WEBHOOK_POLL_MS: '60000',
  });
  // Running in the child: its pid in the lease, ticks in the log.
  await expect.poll(async () => (await logLines(w, run.execution_id)).length, { timeout: 20_000, interval: 50 }).toBeGreaterThan(3);
  const held = await w.t.db.kysely.selectFrom('cloud_runs').select(['state', 'locked_by', 'locked_until']).where('id', '=', run.id).executeTakeFirstOrThrow();
  expect(held.state).toBe('running');
  expect(held.locked_by).toContain(`:${child.child.pid}:`);
  orphan = macroProcess(run.execution_id);
  expect(alive(orphan)).toBe(true);

  child.kill();
  await new Promise((resolve) => child?.child.once('exit', resolve));
  // Dead worker, run untouched: nothing ends it before its lease runs out.
  expect((await w.t.db.kysely.selectFrom('cloud_runs').select('state').where('id', '=', run.id).executeTakeFirstOrThrow()).state).toBe('running');

  // Another worker, on a clock past the lease (instead of waiting 30 s for it to run out).
  const clock = new ManualClock(Number(held.locked_until) + 1);
  const host = new SimHost({ db: w.t.db, clock, bootMs: 0 });
  const other = buildRunsModule({ config: { ...w.t.config, runsDir: tempDir() }, db: w.t.db, clock, host, baseUrl: w.baseUrl, readiness: bootOnHost({ db: w.t.db, clock, host }), log: silentLog, images: w.t.app.modules.images.services.screen, emit: w.t.app.modules.events.services.emit });
  expect(await other.runWorker.jobs.runOnce()).toBe(0); // recovered, not claimed: never run again
  await host.close();

  const after = await w.t.db.kysely.selectFrom('cloud_runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
  expect(after).toMatchObject({ state: 'failed', state_message: 'worker lost', token_hash: null, locked_by: null, locked_until: null });
  const history = await w.t.db.kysely.selectFrom('executions').selectAll().where('execution_id', '=', run.execution_id).executeTakeFirstOrThrow();
  expect(history).toMatchObject({ status: 'failed', error_message: 'worker lost' });
  const events = await w.t.db.kysely.selectFrom('events').select('type').where('user_id', '=', w.user.id).orderBy('id').execute();
  expect(events.map((e) => e.type)).toEqual(['macro.started', 'macro.failed']);
  expect((await w.t.db.kysely.selectFrom('devices').select('hosted_state').where('id', '=', deviceId).executeTakeFirstOrThrow()).hosted_state).toBe('ready');
  // The orphaned macro ends: its sandbox dies with the worker (--die-with-parent); unsandboxed, its next device call is refused (its token is gone).
  await expect.poll(() => alive(orphan as number), { timeout: 10_000 }).toBe(false);
  // The device is free for the next run.
  expect((await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers: w.headers, payload: { macro_id: macroId } })).statusCode).toBe(201);
}, 60_000);
