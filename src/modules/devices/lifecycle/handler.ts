// What the lifecycle job does with a claimed device: carry it from the state it is in to
// the next, re-reading the state before every step, until it rests (ready, stopped, error)
// or is deleted. Start: placing (the host takes a slot) → starting (boot) → ready. Stop:
// stopping (the active run is stopped first, the lease ends, the host frees the slot) →
// stopped. A host fault moves the device to `error` with the reason in hosted_state_message.
import type { Db } from '../../../db/database.js';
import type { JobLog, RunningJob } from '../../../db/jobs/worker.js';
import { AppError } from '../../../core/errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { DeviceHost } from '../hosts/index.js';
import type { LifecyclePayload } from './job.js';
import { deleteHeld, endDeviceLease, moveState, readHeld, releaseAtRest } from './transitions.js';
import { messageOf } from '../../../lib/error-message.js';

/** Stops the device's active cloud run, if any, and resolves once it has ended (registered by the wiring with DeviceLifecycle.onBeforeStop). */
export type StopActiveRun = (deviceId: number, reason: string) => Promise<void>;

export interface LifecycleHandlerDeps {
  db: Db;
  clock: Clock;
  host: DeviceHost;
  log: JobLog;
  stopActiveRun: StopActiveRun;
  /** How often a boot looks whether the device was told to stop meanwhile. */
  watchMs?: number;
}

/** The sentence a person reads in hosted_state_message. */
export function faultMessage(error: unknown): string {
  if (error instanceof AppError) return error.message;
  return `device host fault: ${messageOf(error)}`.slice(0, 500);
}

export function lifecycleHandlers(deps: LifecycleHandlerDeps) {
  const { db, clock, host } = deps;
  const kysely = db.kysely;

  /** Aborts when the device leaves `starting` (a stop arrived) or the job's own signal fires. */
  function watchBoot(job: RunningJob<LifecyclePayload>): { signal: AbortSignal; stop(): void } {
    const moved = new AbortController();
    const timer = setInterval(async () => {
      let row;
      try {
        row = await readHeld(kysely, job.lease, clock.now());
      } catch {
        return; // the database hiccuped; look again next time
      }
      if (!row || row.hosted_state !== 'starting' || row.delete_requested_at !== null) moved.abort(new Error('the device was stopped while it booted'));
    }, deps.watchMs ?? 100);
    return { signal: AbortSignal.any([job.signal, moved.signal]), stop: () => clearInterval(timer) };
  }

  async function stopDevice(job: RunningJob<LifecyclePayload>, deleting: boolean): Promise<void> {
    const id = job.lease.id;
    try {
      await deps.stopActiveRun(id, deleting ? 'the device was deleted' : 'the device was stopped');
      await endDeviceLease(kysely, id);
      await host.shutdown(id);
    } catch (error) {
      // A device being deleted goes anyway: the user asked for it to be gone.
      if (!deleting) {
        await moveState(kysely, job.lease, clock.now(), 'stopping', 'error', faultMessage(error));
        return;
      }
      deps.log.warn({ err: error, device: id }, 'shutting down a deleted device failed; deleting its record anyway');
    }
    if (deleting) await deleteHeld(kysely, job.lease, clock.now());
    else await moveState(kysely, job.lease, clock.now(), 'stopping', 'stopped');
  }

  async function step(job: RunningJob<LifecyclePayload>, device: LifecyclePayload): Promise<void> {
    const id = device.id;
    const deleting = device.delete_requested_at !== null;
    switch (device.hosted_state) {
      case 'placing':
        await host.place(id);
        await moveState(kysely, job.lease, clock.now(), 'placing', 'starting');
        return;
      case 'starting': {
        const watch = watchBoot(job);
        try {
          await host.boot(id, { signal: watch.signal });
        } catch (error) {
          // Stopped mid-boot: not a fault; the next step sees `stopping`.
          if (!job.signal.aborted && watch.signal.aborted) return;
          throw error;
        } finally {
          watch.stop();
        }
        await moveState(kysely, job.lease, clock.now(), 'starting', 'ready');
        return;
      }
      case 'stopping':
        return stopDevice(job, deleting);
      default:
        // At rest; a deletion still pending shuts down whatever is left (an `error` device may hold a slot).
        if (deleting) return stopDevice(job, true);
    }
  }

  return {
    async run(job: RunningJob<LifecyclePayload>): Promise<void> {
      for (;;) {
        const device = await readHeld(kysely, job.lease, clock.now());
        if (!device) return; // deleted, or the lease was lost
        if (job.signal.aborted) {
          const state = device.hosted_state ?? 'stopped';
          if (state === 'placing' || state === 'starting') await moveState(kysely, job.lease, clock.now(), state, 'error', faultMessage(job.signal.reason));
          await releaseAtRest(kysely, job.lease, clock.now());
          return;
        }
        const atRest = device.delete_requested_at === null && (device.hosted_state === 'ready' || device.hosted_state === 'stopped' || device.hosted_state === 'error');
        if (atRest && (await releaseAtRest(kysely, job.lease, clock.now()))) return;
        if (atRest) continue;
        try {
          await step(job, device);
        } catch (error) {
          deps.log.warn({ err: error, device: device.id, state: device.hosted_state }, 'a device host step failed; the device is in error');
          const from = device.hosted_state;
          if (from) await moveState(kysely, job.lease, clock.now(), from, 'error', faultMessage(error));
        }
      }
    },
  };
}
