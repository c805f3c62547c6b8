// followLogs: every line of a run's log as it arrives. The log route has no notion of the
// run's end, so the follower also reads the run: when a read brings nothing new it asks
// whether the run has ended, and once it has, reads what is left (the service writes a run's
// last lines before it records the end) and stops.
//
// Requests: one log read per poll; when a read brings nothing new, a run read on every second
// such poll. At the default 1 s that stays under 90 a minute, inside the per-key limit of 120
// with room for the script's own calls.
import type { SvcClient } from './client.js';
import { SvcApiError } from './errors.js';
import { sleep } from './sleep.js';
import { hasEnded } from './wait-for-run.js';

export interface FollowLogsOptions {
  /**
   * Resume after this cursor (a `last_seq` from an earlier read). Without it the follow starts
   * with the newest `maxLines` lines the run has, then every line after them.
   */
  sinceSeq?: number;
  /** Lines per read, 1 to 1000 (default 1000). */
  maxLines?: number;
  /** Time between two reads when the last one brought nothing new (default 1000 ms). */
  pollIntervalMs?: number;
  /** Stops the follow (the loop rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Called with the cursor after every read that brought lines, to resume later from it. */
  onCursor?: (lastSeq: number) => void;
}

type Reader = Pick<SvcClient, 'executions' | 'runs'>;

/**
 * Whether the run has ended. A cloud run is read by its execution_id (`macros:run`); a key
 * without that scope, or a run that is not a cloud run, is looked up in the run history
 * (`runs:read`, which reading the log needs anyway).
 */
function endChecker(client: Reader, executionId: string): () => Promise<boolean> {
  let historyId: number | undefined;
  let useHistory = !/^cr_[0-9a-f]{24}$/.test(executionId);
  return async () => {
    if (!useHistory) {
      try {
        return hasEnded(await client.runs.get(executionId));
      } catch (error) {
        if (!(error instanceof SvcApiError) || error.status !== 403) throw error;
        useHistory = true;
      }
    }
    if (historyId === undefined) {
      for await (const run of client.executions.all()) {
        if (run.execution_id === executionId) {
          historyId = run.id;
          if (run.status !== 'running') return true;
          break;
        }
      }
      if (historyId === undefined) throw new SvcApiError({ status: 404, envelope: { message: `No run with execution_id ${executionId} in the run history.`, details: { code: 'not_found' } }, request: 'GET /api/executions' });
      return false;
    }
    return (await client.executions.get(historyId)).status !== 'running';
  };
}

export async function* followLogs(client: Reader, executionId: string, options: FollowLogsOptions = {}): AsyncGenerator<string, void, undefined> {
  const maxLines = options.maxLines ?? 1000;
  const interval = options.pollIntervalMs ?? 1000;
  const ended = endChecker(client, executionId);
  let cursor = options.sinceSeq ?? 0;
  let quietReads = 0;
  let finalRead = false;
  for (;;) {
    options.signal?.throwIfAborted();
    const read = await client.executions.logs(executionId, cursor > 0 ? { since_seq: cursor, max_lines: maxLines } : { max_lines: maxLines });
    const fresh = read.last_seq !== cursor;
    if (fresh) {
      cursor = read.last_seq;
      for (const line of read.lines) yield line;
      options.onCursor?.(cursor);
      quietReads = 0;
      // A full window may have more behind it, and after the end only the rest is left: read
      // again at once. Otherwise the read caught up: wait for the next lines.
      if (finalRead || read.lines.length >= maxLines) continue;
      await sleep(interval, options.signal);
      continue;
    }
    if (finalRead) return;
    quietReads++;
    if (quietReads % 2 === 1 && (await ended())) {
      finalRead = true; // one more read collects what was written before the end
      continue;
    }
    await sleep(interval, options.signal);
  }
}
