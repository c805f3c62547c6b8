// What the run worker calls to run one claimed cloud run: load what it needs (load-claimed-run.ts),
// then execute it (execute-run.ts). The worker and its job handler depend on this shape only.
import type { DeviceHost } from '../../devices/index.js';
import { type ClaimedRun, executeRun, type ExecutedRun, type ExecutorDeps } from './execute-run.js';
import { loadClaimedRun } from './load-claimed-run.js';

/** Runs one claimed cloud run: load what it needs, execute it, answer how it ended (with its trace's end, stored with the run's). */
export interface RunExecutor {
  load(runId: number, options?: Pick<ClaimedRun, 'signal' | 'onStarted' | 'proxyUrl'>): Promise<ClaimedRun>;
  execute(claimed: ClaimedRun): Promise<ExecutedRun>;
}

export function runExecutor(deps: ExecutorDeps & { host: DeviceHost }): RunExecutor {
  return { load: (runId, options = {}) => loadClaimedRun(deps, runId, options), execute: (claimed) => executeRun(deps, claimed) };
}
