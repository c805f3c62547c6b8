// The retention sweep of run traces (RUN_TRACE_DAYS, decisions.md §17), a leased background
// job: every process runs the timer, and each round first takes the named lock
// `run-trace.sweep` for the whole interval, without releasing it, so across all processes on
// the database one sweep runs per interval; a process that dies mid-sweep loses nothing
// (the delete is idempotent) and its lease lapses by the next round. A round deletes in
// batches, so a backlog never holds one long transaction. Then it deletes the frame pictures
// (stored once for every trace, migration 0029) that no trace shows any more.
import { randomBytes } from 'node:crypto';
import type { BackgroundWorker } from '../../../core/worker.js';
import { type Db, isForeignKeyViolation } from '../../../db/database.js';
import { tryTakeNamedLock } from '../../../db/named-locks.js';
import type { Clock } from '../../../lib/clock.js';
import type { TraceLog } from './run-tracing.js';
import { deleteTracesBefore, deleteUnshownPictures } from './store.js';

export const TRACE_SWEEP_MS = 15 * 60_000;
const LOCK = 'run-trace.sweep';
const BATCH = 200;
/** At most this many batches a round; the rest waits for the next. */
const MAX_BATCHES = 50;
const DAY_MS = 86_400_000;

export interface TraceSweepDeps {
  db: Db;
  clock: Clock;
  days: number;
  log: TraceLog;
}

/** One round: answers how many traces it deleted, or null when another process holds this round. */
export async function sweepTraces(deps: TraceSweepDeps, holder: string, everyMs = TRACE_SWEEP_MS): Promise<number | null> {
  const now = deps.clock.now();
  if (!(await tryTakeNamedLock(deps.db, LOCK, holder, now, everyMs))) return null;
  const before = now - deps.days * DAY_MS;
  let deleted = 0;
  for (let i = 0; i < MAX_BATCHES; i += 1) {
    const n = await deleteTracesBefore(deps.db.kysely, before, BATCH);
    deleted += n;
    if (n < BATCH) break;
  }
  await sweepPictures(deps);
  return deleted;
}

/**
 * Pictures no trace shows any more: of expired traces, and of traces RUN_TRACE=failures or a
 * deleted run let go. A writer showing one again at this moment makes the delete fail on its
 * foreign key; the round then stops, and the next one deletes what is still unshown.
 */
async function sweepPictures(deps: TraceSweepDeps): Promise<void> {
  for (let i = 0; i < MAX_BATCHES; i += 1) {
    let n: number;
    try {
      n = await deleteUnshownPictures(deps.db.kysely, BATCH);
    } catch (error) {
      // The race above is expected; anything else is said, and the next round tries again.
      if (!isForeignKeyViolation(error)) deps.log.warn({ err: error }, 'sweeping unshown trace pictures failed; retrying next round');
      return;
    }
    if (n < BATCH) return;
  }
}

export function traceSweeper(deps: TraceSweepDeps, everyMs = TRACE_SWEEP_MS): BackgroundWorker {
  const holder = `trace-sweep-${randomBytes(6).toString('hex')}`;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const round = () => {
    running = sweepTraces(deps, holder, everyMs).catch((error: unknown) => deps.log.warn({ err: error }, 'sweeping expired run traces failed; retrying later'));
  };
  return {
    name: 'run-trace.sweep',
    start() {
      if (timer) return;
      round();
      timer = setInterval(round, everyMs);
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
