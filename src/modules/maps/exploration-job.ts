// The exploration job, side by side (listed with every kind in src/workers.ts):
//   table    map_explorations: the explorations are the queue
//   due      state queued
//   payload  the exploration while the claim holds it
//   lease    30 s, renewed every 10 s while it explores; the claim commits before the device
//            is readied, and every write (progress, the end, the map) is made only while
//            the claim's token still holds the row
//   timeout  60 minutes (the largest max_minutes) plus time to ready the device; the explorer
//            stops itself at max_minutes, this is the backstop
//   retry    none: taps on a device are not idempotent
//   lapse    lapsed: a worker that died leaves its lease to run out; any worker then ends the
//            exploration failed (its map unchanged) and releases the device
//   workers  EXPLORATIONS_PER_WORKER (2) per process; woken by EXPLORATION_JOB, polling every 2 s
import type { Kysely } from 'kysely';
import { defineJobKind, type Lease, NO_RETRY } from '../../db/jobs/kind.js';
import type { Database } from '../../db/schema.js';

export const EXPLORATION_JOB = 'map.exploration';
export const EXPLORATION_LEASE_MS = 30_000;
const EXPLORATION_RENEW_MS = 10_000;
const READY_ALLOWANCE_MS = 10 * 60_000;
const EXPLORATIONS_PER_WORKER = 2;

export function explorationJob() {
  return defineJobKind({
    name: EXPLORATION_JOB,
    table: 'map_explorations',
    due: (eb) => eb('state', '=', 'queued'),
    order: 'created_at',
    payload: readHeldExploration,
    leaseMs: EXPLORATION_LEASE_MS,
    renewEveryMs: EXPLORATION_RENEW_MS,
    timeoutMs: 60 * 60_000 + READY_ALLOWANCE_MS,
    retry: NO_RETRY,
    onLapse: 'lapsed',
    concurrency: EXPLORATIONS_PER_WORKER,
    pollMs: 2_000,
  });
}

export type ExplorationJob = ReturnType<typeof explorationJob>;

function readHeldExploration(db: Kysely<Database>, lease: Lease) {
  return db.selectFrom('map_explorations').selectAll().where('id', '=', lease.id).where('locked_by', '=', lease.token).where('state', '=', 'queued').executeTakeFirst();
}
