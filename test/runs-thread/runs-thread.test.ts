// `serve` runs cloud runs on a worker thread of its own (src/runs-thread/): the real binary,
// on the test's storage (a shared SQLite file, or the test's PostgreSQL schema). A run posted
// to it starts at once (the API thread's wake-up reaches the runs thread, not the run job's
// 2 s poll), its lines are readable while it runs, and SIGTERM ends a run in flight as
// "the worker shut down" and leaves its device ready. The thread builds only what a run needs,
// and that includes the events module with webhooks' fan-out: a run's start and end on the
// thread queue their webhook deliveries.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sqliteFileIn } from '../../src/db/database.js';
import { ManualClock } from '../../src/lib/clock.js';
import { newStorage } from '../helpers/app.js';
import { TEST_DATABASE_URL } from '../helpers/engine.js';
import { databaseUrlFor, serveOnFreePort, type SvcProcess } from '../helpers/svc-process.js';
import { createKey } from '../helpers/users.js';
import { createEndpoint } from '../helpers/webhooks.js';
import { type CloudWorld, cloudDevice, cloudWorld, codeMacro } from '../modules/runs/helpers/cloud-world.js';
import { removeTempDirs, tempDir } from '../modules/runs/helpers/runner.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-runs-thread-'));
let w: CloudWorld;
let child: SvcProcess;
let base: string;

beforeAll(async () => {
  const clock = new ManualClock(Date.now());
  const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
  w = TEST_DATABASE_URL ? await cloudWorld({ clock, env }) : await cloudWorld({ clock, env, shareWith: { ...newStorage(), sqliteFile: sqliteFileIn(dir) } });
  // BASE_URL names the child's own address, where a Python run's device calls go.
  ({ svc: child, base } = await serveOnFreePort((port) => ({
    SECRET_KEY: randomBytes(32).toString('hex'),
    DATA_DIR: dir,
    BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrlFor(w.t.storage.pgSchema),
    RUNS_DIR: tempDir(),
    SIM_BOOT_MS: '0',
    RATE_LIMIT_PER_KEY: '100000',
    RATE_LIMIT_PER_ACCOUNT: '100000',
  })));
}, 40_000);
afterAll(async () => {
  await child?.stop();
  await w?.close();
  rmSync(dir, { recursive: true, force: true });
  removeTempDirs();
});

const api = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, { ...init, headers: { ...w.headers, 'content-type': 'application/json', ...init.headers } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { lines?: string[] } };
};
const startOnChild = async (deviceId: number, macroId: number) => {
  const res = await api(`/api/hosted/devices/${deviceId}/run`, { method: 'POST', body: JSON.stringify({ macro_id: macroId }) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; execution_id: string };
};
const stateOf = async (id: number) => (await api(`/api/hosted/runs/${id}`)).body.state;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe(`serve runs cloud runs on its own thread (${TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite file'})`, () => {
  test('runs start at once when posted, and their lines are read back while and after they run', async () => {
    const device = await cloudDevice(w);
    const macro = await codeMacro(w, { 'main.py': 'import time\nfor i in range(3):\n    print(f"line {i}", flush=True)\n    time.sleep(0.05)\n' });
    const { endpoint } = await createEndpoint(w.t.app, (await createKey(w.t.app, w.user)).key, { url: 'https://127.0.0.1:9/hook', event_types: ['macro.*'] });
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const run = await startOnChild(device, macro);
      const posted = Date.now();
      await expect.poll(() => stateOf(run.id), { timeout: 20_000, interval: 5 }).not.toBe('launching');
      delays.push(Date.now() - posted);
      await expect.poll(() => stateOf(run.id), { timeout: 20_000, interval: 20 }).toBe('finished');
      const logs = await api(`/api/executions/${run.execution_id}/logs?max_lines=100`);
      expect(logs.body.lines).toEqual(['line 0', 'line 1', 'line 2']);
      // Idle again before the next run, so each start needs a wake-up.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // Every run's macro.started and macro.completed, recorded on the thread, queued a delivery.
    const delivered = await w.t.db.kysely.selectFrom('webhook_deliveries').select('event_type').where('endpoint_id', '=', endpoint.id).execute();
    expect(delivered.filter((d) => d.event_type === 'macro.started')).toHaveLength(5);
    expect(delivered.filter((d) => d.event_type === 'macro.completed')).toHaveLength(5);
    process.stdout.write(`serve → its runs thread: 201 → running in ${delays.join(', ')} ms (run poll 2000 ms)\n`);
    // The first run boots the device; after that, a poll alone would spread starts over 0–2 s.
    expect(median(delays.slice(1))).toBeLessThan(1_000);
  }, 120_000);

  test("a failed Python run's trace: its device calls, recorded by the API thread's device RPC, are all there, and text typed as secret is nowhere", async () => {
    const device = await cloudDevice(w, 'Traced across threads');
    const macro = await codeMacro(w, {
      'main.py': [
        'import svc_device as d',
        'd.open_app("com.example.shop")',
        'd.tap(540, 2241)',
        'd.tap_element("full_name")',
        'd.type_text("hunter2-in-a-name-field", secret=True)',
        'd.locate(text="Nowhere to be seen").tap(timeout_ms=300)',
        '',
      ].join('\n'),
    });
    const run = await startOnChild(device, macro);
    await expect.poll(() => stateOf(run.id), { timeout: 30_000, interval: 50 }).toBe('failed');
    type Trace = { status: string; failed_step?: number; steps: { action: string; args: Record<string, unknown> }[]; final_ui_tree: { resource_id: string; text: string }[] | null };
    let trace: Trace | undefined;
    // The device RPC stores its last steps a moment after the call (batched off the action's path).
    await expect.poll(async () => (trace = (await api(`/api/executions/${run.execution_id}/trace`)).body as unknown as Trace).steps?.length, { timeout: 10_000, interval: 100 }).toBe(5);
    expect(trace!.steps.map((s) => s.action)).toEqual(['app_open', 'tap', 'tap', 'type', 'tap']);
    expect(trace!.failed_step).toBe(5);
    expect(trace!.steps[3]!.args).toEqual({ text: '•••', secret: true });
    // The runs thread ends the trace without the RPC's memory of what was typed: the field's content is hidden.
    expect(trace!.final_ui_tree!.find((e) => e.resource_id.endsWith(':id/full_name'))!.text).toBe('•••');
    expect(JSON.stringify(trace)).not.toContain('hunter2');
  }, 60_000);

  test('SIGTERM ends a run in flight as "the worker shut down", records it, and leaves the device ready', async () => {
    const device = await cloudDevice(w, 'Long runner');
    const macro = await codeMacro(w, { 'main.py': 'import time\nprint("started", flush=True)\ntime.sleep(60)\n' });
    const run = await startOnChild(device, macro);
    await expect.poll(async () => (await api(`/api/executions/${run.execution_id}/logs?max_lines=10`)).body.lines, { timeout: 20_000, interval: 20 }).toEqual(['started']);
    expect(await child.stop()).toBe(0);
    const row = await w.t.db.kysely.selectFrom('cloud_runs').select(['state', 'state_message']).where('id', '=', run.id).executeTakeFirstOrThrow();
    expect(row.state).toBe('failed');
    expect(row.state_message).toMatch(/shut down/);
    const history = await w.t.db.kysely.selectFrom('executions').select('status').where('execution_id', '=', run.execution_id).executeTakeFirstOrThrow();
    expect(history.status).toBe('failed');
    const dev = await w.t.db.kysely.selectFrom('devices').select('hosted_state').where('id', '=', device).executeTakeFirstOrThrow();
    expect(dev.hosted_state).toBe('ready');
  }, 60_000);
});
