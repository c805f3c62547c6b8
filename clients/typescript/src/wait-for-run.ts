// waitForRun: polls a cloud run until it has ended. The run record says how it ended
// (`finished`, `failed`, `stopped`, with `state_message`); exit code and duration are in the run
// history under the same `execution_id`.
import type { RunRef, SvcClient } from './client.js';
import { sleep } from './sleep.js';
import { type CloudRun, ENDED_STATES } from './types.js';

export interface WaitOptions {
  /** Time between two reads of the run (default 1000 ms). */
  pollIntervalMs?: number;
  /** Stops the wait (rejecting with the signal's reason), e.g. `AbortSignal.timeout(600_000)`. */
  signal?: AbortSignal;
}

export const hasEnded = (run: Pick<CloudRun, 'state'>): boolean => ENDED_STATES.includes(run.state);

export async function waitForRun(client: Pick<SvcClient, 'runs'>, ref: RunRef, options: WaitOptions = {}): Promise<CloudRun> {
  const interval = options.pollIntervalMs ?? 1000;
  for (;;) {
    options.signal?.throwIfAborted();
    const run = await client.runs.get(ref);
    if (hasEnded(run)) return run;
    await sleep(interval, options.signal);
  }
}
