// The device lifecycle job, side by side (listed with every kind in src/workers.ts):
//   table    devices: the device rows are the queue (lease columns from migration 0010)
//   due      hosted_state placing, starting or stopping, or a deletion asked for
//            (the partial index devices_lifecycle_due_idx)
//   payload  the device's id; the handler re-reads its state before every step, so a stop
//            that arrives mid-boot is seen by the worker that holds the device
//   lease    30 s, renewed every 10 s while a step runs (an ADB boot can take minutes)
//   timeout  LIFECYCLE_TIMEOUT_MS (an ADB boot's own limit is 120 s); then `error`
//   retry    none: a host fault moves the device to `error` with hosted_state_message, and the
//            user starts it again (§3: `error` → `placing` on start)
//   lapse    retry: every step is safe to repeat (placing answers the existing placement,
//            a boot starts over, a shutdown of a device that is down does nothing), so a
//            device stuck in placing/starting/stopping after a crash is simply due again and
//            the next worker carries it on from the state it is in
//   workers  LIFECYCLE_CONCURRENCY devices per process; LIFECYCLE_POLL_MS without a wake-up
import type { Kysely } from 'kysely';
import { defineJobKind, type Lease, NO_RETRY } from '../../../db/jobs/kind.js';
import type { Database } from '../../../db/schema.js';
import type { HostedState } from '../../../core/values.js';

export const DEVICE_LIFECYCLE = 'device.lifecycle';
export const LIFECYCLE_LEASE_MS = 30_000;
export const LIFECYCLE_RENEW_MS = 10_000;
export const LIFECYCLE_TIMEOUT_MS = 180_000;
export const LIFECYCLE_CONCURRENCY = 8;
export const LIFECYCLE_POLL_MS = 1_000;

/** States in which a device is in motion and a worker must carry it on. */
export const MOVING_STATES = ['placing', 'starting', 'stopping'] as const satisfies readonly HostedState[];

export function deviceLifecycleJob() {
  return defineJobKind({
    name: DEVICE_LIFECYCLE,
    table: 'devices',
    due: (eb) => eb.or([eb('hosted_state', 'in', MOVING_STATES), eb('delete_requested_at', 'is not', null)]),
    order: 'updated_at',
    payload: readDevice,
    leaseMs: LIFECYCLE_LEASE_MS,
    renewEveryMs: LIFECYCLE_RENEW_MS,
    timeoutMs: LIFECYCLE_TIMEOUT_MS,
    retry: NO_RETRY,
    onLapse: 'retry',
    concurrency: LIFECYCLE_CONCURRENCY,
    pollMs: LIFECYCLE_POLL_MS,
  });
}

export type DeviceLifecycleJob = ReturnType<typeof deviceLifecycleJob>;

/** The device as the lease holds it: its id, state and whether it is to be deleted. */
export async function readDevice(db: Kysely<Database>, lease: Lease) {
  return db
    .selectFrom('devices')
    .select(['id', 'user_id', 'hosted_state', 'delete_requested_at'])
    .where('id', '=', lease.id)
    .where('locked_by', '=', lease.token)
    .where('is_hosted', '=', 1)
    .executeTakeFirst();
}

export type LifecyclePayload = NonNullable<Awaited<ReturnType<typeof readDevice>>>;
