// A stop asked while the macro is calling the device ends the run `stopped`, whatever the
// process does before it dies. The stop marks the run `stopping`, which closes the device RPC
// to its token at once; a macro looping on device calls then gets invalid_run_token and exits 1,
// often before the worker has sent it SIGTERM. That exit must not turn the stop into `failed`.
// The race is made deterministic by a stop whose wake-up never reaches the worker (as from
// another process on SQLite): the worker would learn of it only at its next look, a second
// later, long after the macro has exited 1 on its own. It is also run several times through
// the route, where the worker is woken at once.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloudDevice, type CloudWorld, cloudWorld, codeMacro, ended, logLines, startRun } from './helpers/cloud-world.js';
import { removeTempDirs } from './helpers/runner.js';

let w: CloudWorld;
let macroId: number;
let deviceId: number;

// Ignores SIGTERM, so the process ends only by its own exit (the refused call) or SIGKILL.
const LOOP = `
import signal, sys, svc_device as d
signal.signal(signal.SIGTERM, signal.SIG_IGN)
print("calling", flush=True)
while True:
    try:
        d.current_app()
    except d.DeviceError as error:
        print("refused:", error.code, flush=True)
        sys.exit(1)
`;

beforeAll(async () => {
  w = await cloudWorld({ env: { RUN_MAX_SECONDS: '60' } });
  w.worker();
  macroId = await codeMacro(w, { 'main.py': LOOP });
  deviceId = await cloudDevice(w);
}, 60_000);
afterAll(async () => {
  await w.close();
  removeTempDirs();
});

async function runningRun() {
  const run = await startRun(w, deviceId, { macro_id: macroId });
  await expect.poll(() => logLines(w, run.execution_id), { timeout: 15_000, interval: 25 }).toContain('calling');
  return run;
}

describe('a stop while the macro is calling the device', () => {
  test('ends stopped although the macro exited 1 before the worker learnt of the stop', async () => {
    for (let i = 0; i < 3; i++) {
      const run = await runningRun();
      // What the stop route writes, without the wake-up: the worker's next look is a second away.
      await w.t.db.kysely.updateTable('cloud_runs').set({ state: 'stopping', updated_at: Date.now() }).where('id', '=', run.id).execute();
      const { run: done, history } = await ended(w, run.id, 15_000);
      // The macro did meet the closed RPC and exit 1 on its own.
      const lines = await logLines(w, run.execution_id);
      expect(lines.some((line) => line.startsWith('refused: ')), lines.join(' | ')).toBe(true);
      expect(done).toMatchObject({ state: 'stopped', state_message: 'stopped on request' });
      expect(history).toMatchObject({ status: 'stopped', exit_code: 1 });
    }
  }, 90_000);

  test('ends stopped every time through the stop route', async () => {
    for (let i = 0; i < 5; i++) {
      const run = await runningRun();
      const stop = await w.t.app.inject({ method: 'POST', url: `/api/hosted/runs/${run.id}/stop`, headers: w.headers });
      expect(stop.statusCode).toBe(202);
      const { run: done, history } = await ended(w, run.id, 15_000);
      expect([i, done.state, history.status]).toEqual([i, 'stopped', 'stopped']);
    }
  }, 120_000);
});
