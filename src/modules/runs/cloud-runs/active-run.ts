// "The device has an active run", answered by the runs module, whose table `cloud_runs` is
// (issue 34 §2). The devices module asks it before a lease, a live-view tap, a delete and a
// job's hold on a device; it gets it when it is built (build-modules.ts), since runs depends
// on devices and not the other way round. The active states are core's ACTIVE_RUN_STATES.
import type { Kysely, Transaction } from 'kysely';
import { ACTIVE_RUN_STATES } from '../../../core/values.js';
import type { Database } from '../../../db/schema.js';

/** Whether a cloud run of the device is launching, running or stopping; in the caller's transaction. */
export async function deviceHasActiveRun(db: Kysely<Database> | Transaction<Database>, deviceId: number): Promise<boolean> {
  const run = await db.selectFrom('cloud_runs').select('id').where('device_id', '=', deviceId).where('state', 'in', ACTIVE_RUN_STATES).executeTakeFirst();
  return run !== undefined;
}

/** Which of `deviceIds` have an active cloud run, in one statement (the scheduler's batched starts). */
export async function devicesWithActiveRun(db: Kysely<Database> | Transaction<Database>, deviceIds: readonly number[]): Promise<Set<number>> {
  if (deviceIds.length === 0) return new Set();
  const runs = await db.selectFrom('cloud_runs').select('device_id').where('device_id', 'in', [...deviceIds]).where('state', 'in', ACTIVE_RUN_STATES).execute();
  return new Set(runs.map((run) => run.device_id));
}
