// What the run job does with one claimed run: ready the device, check its proxy (and on a
// device that can be routed, `adb`, apply the relay recipe: proxy-route.ts), load and execute
// the run (executor/), undo the route, and end it, each step's state change in its own
// transaction (run-transitions.ts), the trace's end in the end's. A run that cannot start ends `failed` with the reason; a
// stop or a lost lease aborts it through `signal`.
import type { Lease } from '../../../db/jobs/kind.js';
import type { JobHandlers, JobLog } from '../../../db/jobs/worker.js';
import { type DeviceHost, DeviceNotFoundError, DeviceNotReadyError, DeviceStoppedWhileWaitingError } from '../../devices/index.js';
import type { ExecutedRun } from '../executor/execute-run.js';
import type { RunExecutor } from '../executor/run-executor.js';
import { failed, stopped } from '../outcome.js';
import { type AppliedRoute, applyProxyRoute, clearLeftoverRoute, type ProxyRoutePlan } from './proxy-route.js';
import type { ProxyExitCheck, RunReadiness } from './readiness.js';
import type { CloudRunJob } from './run-job.js';
import { endRun, markRunning, recordProxyExit, type TransitionDeps, WORKER_LOST } from './run-transitions.js';
import type { StopWatch } from './stop-watch.js';
import { messageOf } from '../../../lib/error-message.js';

export interface RunHandlerDeps extends TransitionDeps {
  executor: RunExecutor;
  /** The device host: the driver whose proxy control a route is applied with. */
  host: DeviceHost;
  readiness: RunReadiness;
  proxyExit?: ProxyExitCheck;
  stops: StopWatch;
  log: JobLog;
}

/** How long a recovering worker spends removing a lost run's leftover route before it ends the run anyway. */
const LEFTOVER_ROUTE_MS = 10_000;

export function runHandlers(deps: RunHandlerDeps): JobHandlers<CloudRunJob> {
  /** The relay recipe on a device that can be routed; null on one that cannot (`sim`: the macro's environment carries the proxy). */
  async function route(runId: number, deviceId: number, plan: ProxyRoutePlan): Promise<AppliedRoute | null> {
    const control = (await deps.host.driver(deviceId)).proxyControl;
    if (!control) return null;
    const applied = await applyProxyRoute(control, plan);
    return {
      async teardown() {
        const problems = await applied.teardown();
        if (problems.length > 0) deps.log.warn({ job: deps.kind.name, id: runId, problems }, "a run's proxy route could not be fully undone on its device");
        return problems;
      },
    };
  }

  /** How the run ended, with its trace's end when it was executed (for the end's transaction). */
  async function execute(lease: Lease, userId: number, deviceId: number, signal: AbortSignal): Promise<ExecutedRun> {
    try {
      await deps.readiness.startAndWait({ userId }, { id: deviceId }, { signal });
    } catch (error) {
      if (signal.aborted) return { outcome: stopped() };
      // Its owner stopped or deleted the device before it was ready: the run was stopped with it (§9), not failed.
      if (error instanceof DeviceStoppedWhileWaitingError) return { outcome: stopped(null, `the device was ${error.how}`) };
      return { outcome: failed(`the device did not become ready: ${messageOf(error)}`) };
    }
    let proxyUrl: string | undefined;
    let plan: ProxyRoutePlan | undefined;
    if (deps.proxyExit) {
      try {
        const exit = await deps.proxyExit.check(userId, deviceId);
        if (exit) {
          proxyUrl = exit.proxyUrl;
          plan = exit.relay;
          await recordProxyExit(deps, lease, exit);
        }
      } catch (error) {
        return { outcome: failed(`the device's proxy could not be checked: ${messageOf(error)}`) };
      }
    }
    if (signal.aborted) return { outcome: stopped() };
    let applied: AppliedRoute | null = null;
    if (plan) {
      try {
        applied = await route(lease.id, deviceId, plan);
      } catch (error) {
        return { outcome: failed(`the device could not be routed through its proxy: ${messageOf(error)}`) };
      }
    }
    try {
      let claimed;
      try {
        claimed = await deps.executor.load(lease.id, { signal, proxyUrl, onStarted: () => markRunning(deps, lease) });
      } catch (error) {
        return { outcome: failed(`the run could not start: ${messageOf(error)}`) };
      }
      return await deps.executor.execute(claimed);
    } finally {
      // Before the run ends (and the device is free for another run or a stop), never after.
      await applied?.teardown();
    }
  }

  /** A lost run's device may still point at the dead worker's relay: undo that where the device can be reached. */
  async function clearLeftover(runId: number): Promise<void> {
    const run = await deps.db.kysely.selectFrom('cloud_runs').select('device_id').where('id', '=', runId).executeTakeFirst();
    if (!run) return;
    const work = (async () => {
      const control = (await deps.host.driver(run.device_id)).proxyControl;
      if (control && (await clearLeftoverRoute(control))) deps.log.info({ job: deps.kind.name, id: runId }, "removed a lost run's proxy route from its device");
    })();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, LEFTOVER_ROUTE_MS)));
    try {
      await Promise.race([work, expired]);
    } catch (error) {
      // Not placed or not ready: nothing reachable to undo. Not reachable: said, and given up.
      if (error instanceof DeviceNotFoundError || error instanceof DeviceNotReadyError) return;
      deps.log.warn({ job: deps.kind.name, id: runId, reason: messageOf(error) }, "a lost run's device could not be checked for a leftover proxy route");
    } finally {
      clearTimeout(timer);
      work.catch(() => undefined);
    }
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
        const executed = await execute(lease, run.user_id, run.device_id, AbortSignal.any([jobSignal, stop.signal]));
        let outcome = executed.outcome;
        if (outcome.state === 'stopped' && deps.stops.closing) outcome = failed('the worker shut down during the run');
        const ended = await endRun(deps, lease, outcome, executed.traceEnding);
        if (!ended) deps.log.warn({ job: deps.kind.name, id: run.id }, 'a run ended after its worker lost its lease; another worker ended it');
      } finally {
        deps.stops.unwatch(run.id);
      }
    },
    async lapsed(lease) {
      // The worker died (or hung) mid-run: end it, never run it again. Its token goes with
      // the end, so a macro process the dead worker left behind can no longer drive the device.
      // First, while the run still holds the device, its route (if any) comes off the device.
      await clearLeftover(lease.id);
      await endRun(deps, lease, failed(WORKER_LOST));
    },
  };
}
