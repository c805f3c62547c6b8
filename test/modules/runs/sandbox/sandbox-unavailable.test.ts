// RUN_SANDBOX on a machine where the sandbox cannot be made (decisions.md §10): here bwrap is
// not on RUN_PATH. `required` refuses a run's start with 503 runs_unavailable saying why, and
// GET /healthz warns; `off` warns too, and runs still start.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cloudDevice, type CloudWorld, cloudWorld, codeMacro, postRun } from '../helpers/cloud-world.js';
import { removeTempDirs } from '../helpers/runner.js';

let required: CloudWorld;
let off: CloudWorld;
beforeAll(async () => {
  required = await cloudWorld({ env: { RUN_SANDBOX: 'required', RUN_PATH: '/nonexistent-run-path' } });
  off = await cloudWorld({ env: { RUN_SANDBOX: 'off' } });
});
afterAll(async () => {
  await Promise.all([required.close(), off.close()]);
  removeTempDirs();
});

test('required and no sandbox: a run’s start answers 503 runs_unavailable naming the cause, and /healthz warns', async () => {
  const res = await postRun(required, await cloudDevice(required), { macro_id: await codeMacro(required, { 'main.py': 'print(1)' }) });
  expect(res.statusCode, res.body).toBe(503);
  expect(res.json()).toMatchObject({ details: { code: 'runs_unavailable' }, message: expect.stringMatching(/bubblewrap could not make the run sandbox \(.*bwrap: not found\).*RUN_SANDBOX is required/) });
  expect(res.headers['retry-after']).toBeDefined();
  const health = await required.t.app.inject({ url: '/healthz' });
  expect(health.statusCode).toBe(200);
  expect(health.json()).toMatchObject({ status: 'ok', warnings: [expect.stringMatching(/RUN_SANDBOX is required: Python runs are refused/)] });
});

test('off: /healthz says runs are not sandboxed; runs still start', async () => {
  expect((await off.t.app.inject({ url: '/healthz' })).json()).toMatchObject({ status: 'ok', warnings: [expect.stringMatching(/^RUN_SANDBOX is off: Python runs are NOT sandboxed/)] });
  const res = await postRun(off, await cloudDevice(off), { macro_id: await codeMacro(off, { 'main.py': 'print(1)' }) });
  expect(res.statusCode, res.body).toBe(201);
});
