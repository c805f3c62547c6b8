// The authoring-session job, side by side (listed with every kind in src/workers.ts):
//   table    authoring_sessions: the sessions are the queue
//   due      state working (a new session, or one whose question was answered)
//   payload  the session's id and owner while the claim holds it
//   lease    30 s, renewed every 10 s while the agent works; the claim commits before the
//            first model call, and every step is written only while the claim holds the row
//   timeout  AUTHOR_MAX_MINUTES plus one run_files wait and one model call; the agent ends
//            the session itself at AUTHOR_MAX_MINUTES, this is the backstop
//   retry    none: the agent drives a device and spends credits, neither may happen twice
//   lapse    lapsed: a worker that died leaves its lease to run out; any worker then ends
//            the session failed with a message saying so, and frees its device
//   workers  AUTHOR_SESSIONS_PER_WORKER (4) per process; woken by AUTHORING_JOB, polling every
//            second otherwise. A stop reaches the worker holding the session by AUTHORING_STOP.
import type { Kysely } from 'kysely';
import type { AuthoringSettings } from './settings.js';
import { defineJobKind, type Lease, NO_RETRY } from '../../db/jobs/kind.js';
import type { Database } from '../../db/schema.js';

export const AUTHORING_JOB = 'authoring.session';
export const AUTHORING_STOP = 'authoring.stop';
export const SESSION_LEASE_MS = 30_000;
export const SESSION_RENEW_MS = 10_000;
/** run_files waits at most this long for its run (decisions.md §13). */
export const RUN_WAIT_MS = 5 * 60_000;
const SESSIONS_PER_WORKER = 4;

export function authoringSessionJob(settings: Pick<AuthoringSettings, 'maxMinutes' | 'llmTimeoutS'>) {
  return defineJobKind({
    name: AUTHORING_JOB,
    table: 'authoring_sessions',
    due: (eb) => eb('state', '=', 'working'),
    order: 'created_at',
    payload: readHeldSession,
    leaseMs: SESSION_LEASE_MS,
    renewEveryMs: SESSION_RENEW_MS,
    timeoutMs: settings.maxMinutes * 60_000 + RUN_WAIT_MS + settings.llmTimeoutS * 1000 + 60_000,
    retry: NO_RETRY,
    onLapse: 'lapsed',
    concurrency: SESSIONS_PER_WORKER,
    pollMs: 1000,
  });
}

export type AuthoringSessionJob = ReturnType<typeof authoringSessionJob>;

function readHeldSession(db: Kysely<Database>, lease: Lease) {
  return db
    .selectFrom('authoring_sessions')
    .select(['id', 'user_id'])
    .where('id', '=', lease.id)
    .where('locked_by', '=', lease.token)
    .where('state', '=', 'working')
    .executeTakeFirst();
}

export const WORKER_LOST_MESSAGE = 'The worker running this session stopped or crashed before it finished; the session cannot resume. Start a new session (the files written so far are in its messages).';
