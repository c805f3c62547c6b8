// Run traces through their routes and the run_trace tool (decisions.md §17, app-api.md "Run
// traces") on the app with its own workers, as `serve` runs: a Python run's steps through the
// device RPC (secret text masked, the failing step found, the last frame and UI tree), a block
// run's steps with their block paths, frames immutable and cached, who may read what (another
// account's ids 404 as any missing run, the caller's run without a trace 404 trace_not_found,
// a key without runs:read 403, the owner's session 200), and run_trace through the MCP SDK.
import { describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { createCloudDevice, createDevice, createMacro } from '../../helpers/resources.js';
import { createKey, type SignedUpUser, withKey } from '../../helpers/users.js';
import { snapshotBody } from '../../helpers/zip.js';
import { call, data, failure } from '../mcp/helpers/client.js';
import { useMcpWorld } from '../mcp/helpers/world.js';

const w = useMcpWorld();

const PYTHON = `
import svc_device as d
d.open_app("${DEMO_APP_PACKAGE}")
d.tap_element("row_beans")
d.tap_text("Add to cart")
d.tap_text("Keep shopping")
d.tap(540, 2241)
d.tap_element("full_name")
d.type_text("hunter2-password", secret=True)
d.current_app()
d.locate(text="Nowhere to be seen").tap(timeout_ms=300)
`;

const BLOCKS = { version: 1, steps: [{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'repeat', times: 2, steps: [{ type: 'tap', element_id: 'row_mug' }, { type: 'key', key: 'BACK' }] }] };

type Trace = { execution_id: string; status: string; failed_step?: number; steps: { seq: number; action: string; args: Record<string, unknown>; outcome: string; frame_before?: string; frame_after?: string; block_path?: string; error?: { code: string; message: string } }[]; final_frame: string | null; final_ui_tree: unknown[] | null; frames_capped: boolean; screen?: { width: number; height: number }; notes: string[]; ended_at?: string };

async function keyOf(user: SignedUpUser, scopes: string[]) {
  return withKey((await createKey(w.t.app, user, { scopes, name: `k-${Math.random()}` })).key);
}

async function runToEnd(user: SignedUpUser, macro: { kind: 'python'; code: string } | { kind: 'block'; blocks: unknown }) {
  let macroId: number;
  if (macro.kind === 'python') {
    macroId = (await createMacro(w.t.app, user, { kind: 'python' })).id;
    const upload = await w.t.app.inject({ method: 'POST', url: `/api/macros/${macroId}/code-snapshot`, headers: user.auth, payload: snapshotBody([{ name: 'main.py', data: macro.code }], { entry_path: 'main.py' }) });
    expect(upload.statusCode, upload.body).toBe(201);
  } else {
    const res = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Blocks', kind: 'block', blocks: macro.blocks } });
    macroId = res.json().id;
  }
  const device = await createCloudDevice(w.t.app, user, { name: 'Traced' });
  const start = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${device.id}/run`, headers: user.auth, payload: { macro_id: macroId } });
  expect(start.statusCode, start.body).toBe(201);
  const run = start.json() as { id: number; execution_id: string };
  await expect.poll(async () => (await w.t.app.inject({ url: `/api/hosted/runs/${run.id}`, headers: user.auth })).json().state, { timeout: 30_000, interval: 50 }).toMatch(/^(finished|failed|stopped)$/);
  return run.execution_id;
}

const getTrace = (executionId: string, headers: Record<string, string>, suffix = '') => w.t.app.inject({ url: `/api/executions/${executionId}/trace${suffix}`, headers });

let pythonRun: string | undefined;
async function pythonTrace(): Promise<Trace> {
  pythonRun ??= await runToEnd(w.owner, { kind: 'python', code: PYTHON });
  let trace: Trace | undefined;
  // The device RPC stores its last steps a moment after the call (batched off the action's path).
  await expect.poll(async () => (trace = (await getTrace(pythonRun!, w.owner.auth)).json() as Trace).steps?.length, { timeout: 10_000, interval: 100 }).toBe(9);
  return trace!;
}

describe('a Python run', () => {
  test("every SDK call a step, in order; the secret masked; the failed step, last frame and UI tree", async () => {
    const trace = await pythonTrace();
    expect(trace).toMatchObject({ execution_id: pythonRun, status: 'failed', failed_step: 9, frames_capped: false, notes: [], screen: { width: 1080, height: 2400 } });
    expect(trace.steps.map((s) => s.action)).toEqual(['app_open', 'tap', 'tap', 'tap', 'tap', 'tap', 'type', 'current_app', 'tap']);
    expect(trace.steps[6]!.args).toEqual({ text: '•••', secret: true });
    // Nowhere: not in the steps, not in the error that lists the screen's texts, not in the last UI tree.
    expect(JSON.stringify(trace)).not.toContain('hunter2');
    expect(trace.steps[8]!.error!.message).toContain('•••');
    expect(trace.steps[8]).toMatchObject({ outcome: 'error', error: { code: 'element_not_found' }, args: { selector: { text: 'Nowhere to be seen' }, timeout_ms: 300 } });
    expect(trace.steps[8]!.frame_before).toMatch(/^fr_/);
    expect(trace.final_frame).toMatch(/^fr_/);
    expect(trace.final_ui_tree!.length).toBeGreaterThan(3);
    expect(trace.steps.every((s) => s.block_path === undefined)).toBe(true);
  });

  test('a frame: JPEG, immutable and cached; 304 on its ETag; the same bytes every time', async () => {
    const trace = await pythonTrace();
    const id = trace.steps[0]!.frame_after!;
    const res = await getTrace(pythonRun!, w.owner.auth, `/frames/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers.etag).toBe(`"${id}"`);
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const again = await getTrace(pythonRun!, await keyOf(w.owner, ['runs:read']), `/frames/${id}`);
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    const cached = await getTrace(pythonRun!, { ...w.owner.auth, 'if-none-match': `"${id}"` }, `/frames/${id}`);
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    const missing = await getTrace(pythonRun!, w.owner.auth, `/frames/fr_${'0'.repeat(24)}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().details.code).toBe('not_found');
  });
});

describe('a block run', () => {
  test('steps with their block paths; the same screen is one frame', async () => {
    const executionId = await runToEnd(w.owner, { kind: 'block', blocks: BLOCKS });
    const res = await getTrace(executionId, await keyOf(w.owner, ['runs:read']));
    expect(res.statusCode, res.body).toBe(200);
    const trace = res.json() as Trace;
    expect(trace.status).toBe('completed');
    expect(trace.failed_step).toBeUndefined();
    expect(trace.final_frame).toBeNull();
    expect(trace.steps.map((s) => [s.action, s.block_path])).toEqual([
      ['app_open', 'steps.0'],
      ['tap', 'steps.1.steps.0'],
      ['key', 'steps.1.steps.1'],
      ['tap', 'steps.1.steps.0'],
      ['key', 'steps.1.steps.1'],
    ]);
    expect(trace.steps[1]!.frame_after).toBe(trace.steps[3]!.frame_after);
    expect(trace.steps[2]!.frame_after).toBe(trace.steps[4]!.frame_after);
  });
});

describe('who may read a trace', () => {
  test("another account's ids 404 not_found on every route; a key without runs:read 403; the owner's session 200; no key 401", async () => {
    const trace = await pythonTrace();
    const frame = `/frames/${trace.steps[0]!.frame_after}`;
    const stranger = await keyOf(w.stranger, ['runs:read']);
    for (const suffix of ['', frame, '.html']) {
      const res = await w.t.app.inject({ url: `/api/executions/${pythonRun}/trace${suffix}`, headers: stranger });
      expect(res.statusCode, suffix).toBe(404);
      expect(res.json().details.code).toBe('not_found');
      expect((await w.t.app.inject({ url: `/api/executions/${pythonRun}/trace${suffix}`, headers: w.stranger.auth })).statusCode).toBe(404);
      const wrongScope = await w.t.app.inject({ url: `/api/executions/${pythonRun}/trace${suffix}`, headers: await keyOf(w.owner, ['maps:read']) });
      expect(wrongScope.statusCode, suffix).toBe(403);
      expect(wrongScope.json().details).toMatchObject({ code: 'insufficient_scope', required_scopes: ['runs:read'] });
      expect((await w.t.app.inject({ url: `/api/executions/${pythonRun}/trace${suffix}` })).statusCode).toBe(401);
      expect((await w.t.app.inject({ url: `/api/executions/${pythonRun}/trace${suffix}`, headers: w.owner.auth })).statusCode).toBe(200);
    }
  });

  test("the caller's own run without a trace (a local run) answers 404 trace_not_found", async () => {
    const executionId = `local-${Date.now()}`;
    const macro = await createMacro(w.t.app, w.owner, { kind: 'python' });
    const device = await createDevice(w.t.app, w.owner, { name: 'On my desk' });
    const payload = { execution_id: executionId, status: 'running', macro_id: macro.id, device_id: device.id, execution_type: 'python', started_at: '2026-03-02T09:00:00Z' };
    const report = await w.t.app.inject({ method: 'POST', url: '/api/executions/report', headers: w.owner.auth, payload });
    expect(report.statusCode, report.body).toBeLessThan(300);
    for (const suffix of ['', '.html', `/frames/fr_${'1'.repeat(24)}`]) {
      const res = await w.t.app.inject({ url: `/api/executions/${executionId}/trace${suffix}`, headers: w.owner.auth });
      expect(res.statusCode, suffix).toBe(404);
      expect(res.json().details.code).toBe('trace_not_found');
    }
  });
});

describe('run_trace through the MCP SDK client', () => {
  test('the steps as structured content; the failed step and the two before it; its frames as JPEG items', async () => {
    const trace = await pythonTrace();
    const client = await w.clientFor(w.owner, ['macros:run']);
    const all = await call(client, 'run_trace', { execution_id: pythonRun });
    expect(data<Trace>(all).steps).toHaveLength(9);
    expect(data<Trace>(all).failed_step).toBe(9);
    const failed = await call(client, 'run_trace', { execution_id: pythonRun, steps: 'failed' });
    expect(data<Trace>(failed).steps.map((s) => s.seq)).toEqual([7, 8, 9]);
    const images = failed.content.filter((c) => c.type === 'image');
    // A selector that never matched: the step gave up before any input, so it has only a "before".
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ mimeType: 'image/jpeg' });
    const jpeg = Buffer.from((images[0] as { data: string }).data, 'base64');
    const rest = await getTrace(pythonRun!, w.owner.auth, `/frames/${trace.steps[8]!.frame_before}`);
    expect(jpeg.equals(rest.rawPayload)).toBe(true);
    // The last step of a finished run, with its before and after.
    const blocks = await runToEnd(w.owner, { kind: 'block', blocks: BLOCKS });
    const last = await call(client, 'run_trace', { execution_id: blocks, steps: 'failed' });
    expect(data<Trace>(last).steps.map((s) => s.seq)).toEqual([3, 4, 5]);
    expect(last.content.filter((c) => c.type === 'image')).toHaveLength(2);
  });

  test("another account's run: not_found; a key without macros:run: refused", async () => {
    await pythonTrace();
    const stranger = await w.clientFor(w.stranger, ['macros:run']);
    expect(failure(await call(stranger, 'run_trace', { execution_id: pythonRun })).code).toBe('not_found');
    const reader = await w.clientFor(w.owner, ['runs:read']);
    expect(failure(await call(reader, 'run_trace', { execution_id: pythonRun })).code).toBe('insufficient_scope');
  });
});
