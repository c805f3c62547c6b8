// What the run job does with one claimed run: ready the device, check its proxy, load and
// execute the run (executor/), and end it, each step's state change in its own transaction
// (run-transitions.ts). A run that cannot start ends `failed` with the reason; a stop or a
// lost lease aborts it through `signal`.
import type { Lease } from '../../../db/jobs/kind.js';
import type { JobHandlers, JobLog } from '../../../db/jobs/worker.js';
import { DeviceStoppedWhileWaitingError } from '../../devices/index.js';
import type { RunExecutor } from '../module.js';
import { failed, type RunOutcome, stopped } from '../outcome.js';
import type { ProxyExitCheck, RunReadiness } from './readiness.js';
import type { CloudRunJob } from './run-job.js';
import { endRun, markRunning, recordProxyExit, type TransitionDeps, WORKER_LOST } from './run-transitions.js';
import type { StopWatch } from './stop-watch.js';

export interface RunHandlerDeps extends TransitionDeps {
  executor: RunExecutor;
  readiness: RunReadiness;
  proxyExit?: ProxyExitCheck;
  stops: StopWatch;
  log: JobLog;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function runHandlers(deps: RunHandlerDeps): JobHandlers<CloudRunJob> {
  async function execute(lease: Lease, userId: number, deviceId: number, signal: AbortSignal): Promise<RunOutcome> {
    try {
      await deps.readiness.ensureReady(userId, deviceId, signal);
    } catch (error) {
      if (signal.aborted) return stopped();
      // Its owner stopped or deleted the device before it was ready: the run was stopped with it (§9), not failed.
      if (error instanceof DeviceStoppedWhileWaitingError) return stopped(null, `the device was ${error.how}`);
      return failed(`the device did not become ready: ${reasonOf(error)}`);
    }
    let proxyUrl: string | undefined;
    if (deps.proxyExit) {
      try {
        const exit = await deps.proxyExit(userId, deviceId);
        if (exit) {
          proxyUrl = exit.proxyUrl;
          await recordProxyExit(deps, lease, exit);
        }
      } catch (error) {
        return failed(`the device's proxy could not be checked: ${reasonOf(error)}`);
      }
    }
    if (signal.aborted) return stopped();
    let claimed;
    try {
      claimed = await deps.executor.load(lease.id, { signal, proxyUrl, onStarted: () => markRunning(deps, lease) });
    } catch (error) {
      return failed(`the run could not start: ${reasonOf(error)}`);
    }
    return deps.executor.execute(claimed);
  }

  return {
    async run({ lease, payload: run, signal: jobSignal }) {
      // A run stopped before any worker took it never starts.
      if (run.state === 'stopping') {
        await endRun(deps, lease, stopped());
        return;
      }
      const stop = deps.stops.watch(run.id);
      try {
        let outcome = await execute(lease, run.user_id, run.device_id, AbortSignal.any([jobSignal, stop.signal]));
        if (outcome.state === 'stopped' && deps.stops.closing) outcome = failed('the worker shut down during the run');
        const ended = await endRun(deps, lease, outcome);
        if (!ended) deps.log.warn({ job: deps.kind.name, id: run.id }, 'a run ended after its worker lost its lease; another worker ended it');
      } finally {
        deps.stops.unwatch(run.id);
      }
    },
    async lapsed(lease) {
      // The worker died (or hung) mid-run: end it, never run it again. Its token goes with
      // the end, so a macro process the dead worker left behind can no longer drive the device.
      await endRun(deps, lease, failed(WORKER_LOST));
    },
  };
}
