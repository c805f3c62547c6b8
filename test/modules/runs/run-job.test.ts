// Cloud runs end to end through the routes and the run job: a real Python macro walking the
// demo app through svc_device with its log read back by the cursor, arguments from profiles
// and overrides, exit codes, the time limit, stop, a block program with every step kind, and
// the events (and webhook deliveries) of a run. Each run's record, history and event agree.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/hosts/index.js';
import { startReceiver, makeTestCa, testWorker, createEndpoint, type Receiver, type TestCa } from '../../helpers/webhooks.js';
import type { WebhookWorkerHandle } from '../../../src/modules/webhooks/runner.js';
import type { RunWorker } from '../../../src/modules/runs/index.js';
import { createKey } from '../../helpers/users.js';
import { blockMacro, cloudDevice, type CloudWorld, cloudWorld, codeMacro, ended, getRun, logLines, startRun } from './helpers/cloud-world.js';
import { removeTempDirs } from './helpers/runner.js';

let w: CloudWorld;
let ca: TestCa;
let rx: Receiver;
let deliveries: WebhookWorkerHandle;
let main: RunWorker;
beforeAll(async () => {
  w = await cloudWorld({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  main = w.worker();
  ca = makeTestCa();
  rx = await startReceiver(ca);
  deliveries = testWorker(w.t, ca);
  deliveries.worker.start();
});
afterAll(async () => {
  await deliveries.close();
  await w.close();
  await rx.close();
  ca.dispose();
  removeTempDirs();
});

const eventsOf = async (executionId: string) =>
  (await w.t.db.kysely.selectFrom('events').select(['type', 'payload', 'device_id']).where('user_id', '=', w.user.id).where('type', 'like', 'macro.%').orderBy('id').execute())
    .map((e) => ({ type: e.type, data: JSON.parse(e.payload).data, device_id: e.device_id }))
    .filter((e) => e.data.execution_id === executionId);

const WALK = `
import svc_device as d
print("front:", d.current_app())
d.open_app("${DEMO_APP_PACKAGE}")
d.tap_element("row_beans")
d.tap_text("Add to cart")
d.tap_text("Check out")
d.tap_element("full_name")
d.type_text("Ada Lovelace")
d.key("BACK")  # the keyboard covers the button while a field has focus
d.tap_text("place order")
print("thanks:", d.find_text("Thank you")["text"])
d.log("done")
`;

describe('a Python run', () => {
  test('starts a stopped device, walks the demo app through svc_device, logs through the cursor, and ends finished/completed with its events', async () => {
    const macroId = await codeMacro(w, { 'main.py': WALK });
    const deviceId = await cloudDevice(w);
    const run = await startRun(w, deviceId, { macro_id: macroId });
    expect(run).toEqual({
      id: expect.any(Number),
      execution_id: expect.stringMatching(/^cr_[0-9a-f]{24}$/),
      device_id: deviceId,
      macro_id: macroId,
      state: 'launching',
      bundle_sha: expect.stringMatching(/^[0-9a-f]{64}$/),
      code_ref: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const { run: done, history } = await ended(w, run.id);
    expect(done).toMatchObject({ state: 'finished', started_at: expect.any(String), finished_at: expect.any(String), bundle_sha: run.bundle_sha, code_ref: run.code_ref });
    expect(done.state_message).toBeUndefined();
    expect(history).toMatchObject({ status: 'completed', exit_code: 0, execution_type: 'python', macro_id: macroId, device_id: deviceId, device_name: 'Cloud phone' });
    expect(await logLines(w, run.execution_id)).toEqual(['front: com.android.launcher3', 'thanks: Thank you, Ada Lovelace!', 'done']);
    const device = await w.t.db.kysely.selectFrom('devices').select(['hosted_state', 'run_count']).where('id', '=', deviceId).executeTakeFirstOrThrow();
    expect(device).toEqual({ hosted_state: 'ready', run_count: 1 });
    const events = await eventsOf(run.execution_id);
    expect(events.map((e) => [e.type, e.data.status, e.device_id])).toEqual([
      ['macro.started', 'running', deviceId],
      ['macro.completed', 'completed', deviceId],
    ]);
    expect(events[1].data).toEqual(history);
    // The token went with the run.
    expect((await w.t.db.kysely.selectFrom('cloud_runs').select('token_hash').where('id', '=', run.id).executeTakeFirstOrThrow()).token_hash).toBeNull();
  });

  test('arguments: the profile’s values under the run’s args; the stored __cli_args__ dropped unless the run gives its own', async () => {
    const macroId = await codeMacro(w, { 'main.py': 'import sys, svc_device as d\nprint(sys.argv[1:])\nprint(sorted(d.args().items()))' }, { speed: 2, dry_run: false, __cli_args__: '--stored' });
    const deviceId = await cloudDevice(w);
    const plain = await startRun(w, deviceId, { macro_id: macroId });
    await ended(w, plain.id);
    expect(await logLines(w, plain.execution_id)).toEqual(["['--stored']", "[('__cli_args__', '--stored'), ('dry_run', False), ('speed', 2)]"]);
    const over = await startRun(w, deviceId, { macro_id: macroId, args: { speed: 5, tags: ['a', 'b'] } });
    await ended(w, over.id);
    expect((await logLines(w, over.execution_id))[0]).toBe(`['--speed', '5', '--dry_run', 'false', '--tags', '["a","b"]']`);
    const cli = await startRun(w, deviceId, { macro_id: macroId, args: { __cli_args__: `--email "ada@example.com" --note 'it''s fine' -v` } });
    await ended(w, cli.id);
    expect((await logLines(w, cli.execution_id))[0]).toBe("['--email', 'ada@example.com', '--note', 'its fine', '-v']");
  });

  test('a non-zero exit fails the run with its code and the last stderr line; a crash by signal is 128 + n', async () => {
    const macroId = await codeMacro(w, { 'main.py': 'import sys\nprint("working")\nsys.stderr.write("first problem\\nno such product\\n")\nsys.exit(3)' });
    const deviceId = await cloudDevice(w);
    const run = await startRun(w, deviceId, { macro_id: macroId });
    const { run: done, history } = await ended(w, run.id);
    expect(done).toMatchObject({ state: 'failed', state_message: 'the macro exited with code 3' });
    expect(history).toMatchObject({ status: 'failed', exit_code: 3, error_message: 'no such product' });
    expect(await logLines(w, run.execution_id)).toEqual(['working', '[stderr] first problem', '[stderr] no such product']);
    expect((await eventsOf(run.execution_id)).map((e) => e.type)).toEqual(['macro.started', 'macro.failed']);

    const crash = await codeMacro(w, { 'main.py': 'import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)' });
    const crashed = await startRun(w, deviceId, { macro_id: crash });
    expect((await ended(w, crashed.id)).history).toMatchObject({ status: 'failed', exit_code: 139 });
  });

  test('the time limit ends a run failed, saying so', async () => {
    // This test's own worker, with a 1 s limit, in place of the file's.
    await main.stop();
    const limited = w.worker({ runMaxSeconds: 1 });
    try {
      const macroId = await codeMacro(w, { 'main.py': 'import time\nprint("sleeping", flush=True)\ntime.sleep(60)' });
      const run = await startRun(w, await cloudDevice(w), { macro_id: macroId });
      const { run: done, history } = await ended(w, run.id);
      expect(done).toMatchObject({ state: 'failed', state_message: expect.stringMatching(/^time limit exceeded: the run was still going after 1 s/) });
      expect(history).toMatchObject({ status: 'failed', exit_code: expect.any(Number) });
      expect([137, 143]).toContain(history.exit_code);
    } finally {
      await limited.stop();
      main = w.worker();
    }
  }, 30_000);
});

describe('stop', () => {
  test('202 stopping, then stopped with SIGTERM’s code; a second stop answers the ended run 200; the macro could clean up', async () => {
    const macroId = await codeMacro(w, {
      'main.py': 'import signal, sys, time\nsignal.signal(signal.SIGTERM, lambda *_: (print("cleaning up", flush=True), sys.exit(143)))\nprint("waiting", flush=True)\ntime.sleep(300)',
    });
    const run = await startRun(w, await cloudDevice(w), { macro_id: macroId });
    await expect.poll(() => logLines(w, run.execution_id), { timeout: 15_000 }).toEqual(['waiting']);
    expect((await getRun(w, run.id)).state).toBe('running');
    const stop = await w.t.app.inject({ method: 'POST', url: `/api/hosted/runs/${run.id}/stop`, headers: w.headers });
    expect(stop.statusCode).toBe(202);
    expect(stop.json()).toMatchObject({ id: run.id, state: 'stopping' });
    const { run: done, history } = await ended(w, run.id, 10_000);
    expect(done).toMatchObject({ state: 'stopped', state_message: 'stopped on request' });
    expect(history).toMatchObject({ status: 'stopped', exit_code: 143 });
    expect(await logLines(w, run.execution_id)).toEqual(['waiting', 'cleaning up']);
    expect((await eventsOf(run.execution_id)).map((e) => e.type)).toEqual(['macro.started', 'macro.stopped']);
    const again = await w.t.app.inject({ method: 'POST', url: `/api/hosted/runs/${run.id}/stop`, headers: w.headers });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(done);
  });
});

describe('a block run', () => {
  test('runs a program with every step kind, one log line per step; a step naming an image the library does not hold fails naming its path', async () => {
    const steps = [
      { type: 'open_app', package: DEMO_APP_PACKAGE },
      { type: 'wait_for_text', text: 'Corner Shop', timeout_ms: 2000 },
      { type: 'if_text', text: 'Espresso beans', then: [{ type: 'tap', element_id: 'row_beans' }], else: [{ type: 'log', message: 'no beans' }] },
      { type: 'tap', text: 'Add to cart' },
      { type: 'tap', text: 'Keep shopping' },
      { type: 'repeat', times: 2, steps: [{ type: 'tap', element_id: 'row_mug' }, { type: 'key', key: 'BACK' }] },
      { type: 'tap', x: 540, y: 2241 },
      { type: 'tap', element_id: 'full_name' },
      { type: 'type', text: 'Ada' },
      { type: 'swipe', from: { x: 540, y: 1800 }, to: { x: 540, y: 900 }, ms: 50 },
      { type: 'wait', ms: 20 },
      { type: 'key', key: 'BACK' }, // the keyboard covers "Place order" while a field has focus
      { type: 'tap', text: 'Place order' },
      { type: 'log', message: 'ordered' },
      { type: 'close_app', package: DEMO_APP_PACKAGE },
    ];
    const deviceId = await cloudDevice(w);
    const run = await startRun(w, deviceId, { macro_id: await blockMacro(w, { version: 1, steps }) });
    expect(run.code_ref).toBeUndefined();
    const { run: done, history } = await ended(w, run.id);
    expect(done.state).toBe('finished');
    expect(history).toMatchObject({ status: 'completed', execution_type: 'block' });
    const lines = await logLines(w, run.execution_id);
    // 19 steps; the else branch is not taken and the repeat's two steps run twice.
    expect(lines).toHaveLength(20);
    expect(lines.slice(0, 4)).toEqual(['step 1/19: open app com.example.shop', 'step 2/19: wait for "Corner Shop" (up to 2000 ms)', 'step 3/19: if text "Espresso beans" shows: yes, then', 'step 4/19: tap element "row_beans"']);
    expect(lines.at(-1)).toBe('step 19/19: close app com.example.shop');

    const images = await blockMacro(w, { version: 1, steps: [{ type: 'log', message: 'a' }, { type: 'if_image', image_id: 'img_0123456789abcdef', then: [] }] });
    const failed = await startRun(w, deviceId, { macro_id: images });
    const result = await ended(w, failed.id);
    expect(result.run).toMatchObject({ state: 'failed', state_message: expect.stringMatching(/^step 2\/2 \(steps.1\) failed: if image img_0123456789abcdef shows: No image with this id in your image library\./) });
    expect(result.history.error_message).toBe(result.run.state_message);
  });
});

describe('webhooks', () => {
  test('an endpoint receives macro.started and macro.completed for a run, carrying the run record', async () => {
    const { endpoint } = await createEndpoint(w.t.app, (await createKey(w.t.app, w.user)).key, { url: rx.url, event_types: ['macro.*'] });
    expect(endpoint.id).toBeGreaterThan(0);
    const run = await startRun(w, await cloudDevice(w), { macro_id: await codeMacro(w, { 'main.py': 'print("hi")' }) });
    const { history } = await ended(w, run.id);
    await expect.poll(() => rx.requests.map((r) => JSON.parse(r.body)).filter((b) => b.data.execution_id === run.execution_id).map((b) => b.type), { timeout: 10_000 }).toEqual([
      'macro.started',
      'macro.completed',
    ]);
    const completed = rx.requests.map((r) => JSON.parse(r.body)).find((b) => b.type === 'macro.completed' && b.data.execution_id === run.execution_id);
    expect(completed.data).toEqual(history);
  });
});
