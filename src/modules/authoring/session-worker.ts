// Builds the authoring worker: the generic job worker running the session kind with the
// agent loop, the lapse rule (a dead worker's session ends failed with a message, never a
// silent hang) and the stop watch (a stop aborts the session's work at once, not at the next
// lease renewal).
import type { BackgroundWorker } from '../../core/worker.js';
import type { Db } from '../../db/database.js';
import { completeJob } from '../../db/jobs/leases.js';
import { type JobLog, JobWorker } from '../../db/jobs/worker.js';
import type { Lease } from '../../db/jobs/kind.js';
import { type AgentDeps, agentCaller, runSession } from './agent/loop.js';
import { appendMessage } from './messages.js';
import { releaseSessionLease } from './session-lease.js';
import { AUTHORING_STOP, type AuthoringSessionJob, WORKER_LOST_MESSAGE } from './session-job.js';

export interface AuthoringWorker extends BackgroundWorker {
  readonly jobs: JobWorker<AuthoringSessionJob>;
}

/** Aborts the work of sessions this process holds once they are stopped (their lease was cleared). */
class StopWatch {
  private readonly held = new Map<number, { token: string; abort: () => void }>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly db: Db) {}

  start(): void {
    this.unsubscribe = this.db.wakeup.subscribe(AUTHORING_STOP, () => void this.look());
  }

  stop(): void {
    this.unsubscribe?.();
  }

  abortAll(): void {
    for (const entry of this.held.values()) entry.abort();
  }

  track(lease: Lease, abort: () => void): () => void {
    this.held.set(lease.id, { token: lease.token, abort });
    return () => this.held.delete(lease.id);
  }

  private async look(): Promise<void> {
    if (this.held.size === 0) return;
    const rows = await this.db.kysely.selectFrom('authoring_sessions').select(['id', 'locked_by']).where('id', 'in', [...this.held.keys()]).execute().catch(() => []);
    for (const row of rows) {
      const entry = this.held.get(Number(row.id));
      if (entry && row.locked_by !== entry.token) entry.abort();
    }
  }
}

export const SHUT_DOWN_MESSAGE = 'The worker running this session shut down before it finished; start a new session.';

export function createAuthoringWorker(deps: AgentDeps & { log: JobLog; name?: string }): AuthoringWorker {
  const stops = new StopWatch(deps.db);
  let shuttingDown = false;
  /** Ends a session this worker still holds failed with `message`; false when it no longer holds it. */
  async function endHeld(lease: Lease, message: string): Promise<void> {
    const now = deps.clock.now();
    const ended = await deps.db.kysely.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('authoring_sessions').select(['user_id', 'lease_id']).where('id', '=', lease.id).executeTakeFirst();
      const done = await completeJob(trx, deps.kind, lease, now, { state: 'failed', state_message: message, lease_id: null, updated_at: now });
      if (!done || !row) return null;
      await appendMessage(trx, lease.id, 'agent', `Session failed: ${message}`, now);
      return row;
    });
    if (ended?.lease_id) await releaseSessionLease(deps.ports, agentCaller(Number(ended.user_id), lease.id), ended.lease_id);
  }
  const jobs = new JobWorker({
    db: deps.db,
    clock: deps.clock,
    log: deps.log,
    kind: deps.kind,
    name: deps.name,
    handlers: {
      async run(job) {
        const controller = new AbortController();
        const forward = () => controller.abort();
        job.signal.addEventListener('abort', forward, { once: true });
        const untrack = stops.track(job.lease, forward);
        try {
          await runSession(deps, { ...job, signal: controller.signal });
          // A shutdown cut the session short mid-step: it cannot resume from half a step.
          if (shuttingDown) await endHeld(job.lease, SHUT_DOWN_MESSAGE);
        } finally {
          untrack();
          job.signal.removeEventListener('abort', forward);
        }
      },
      // The worker holding the session died: end it failed, saying so, and free its device.
      lapsed: (lease) => endHeld(lease, WORKER_LOST_MESSAGE),
    },
  });
  return {
    name: deps.kind.name,
    jobs,
    start() {
      shuttingDown = false;
      stops.start();
      jobs.start();
    },
    async stop() {
      shuttingDown = true;
      const stopping = jobs.stop();
      stops.abortAll();
      await stopping;
      stops.stop();
    },
  };
}
