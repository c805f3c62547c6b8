// A run's trace (decisions.md §17): the JSON, a frame's address, the HTML page's address, and
// the macro's last finished run with a trace, for the comparison.
import { api } from '../../api/client';
import { ApiError, unwrap } from '../../api/errors';
import type { Trace } from './trace-types';
import { listRuns } from './runs-api';

const path = (executionId: string) => `/api/executions/${encodeURIComponent(executionId)}`;

export const getTrace = (executionId: string): Promise<Trace> => unwrap(api.GET('/api/executions/{execution_id}/trace', { params: { path: { execution_id: executionId } } }));
export const frameUrl = (executionId: string, frameId: string) => `${path(executionId)}/trace/frames/${encodeURIComponent(frameId)}`;
export const traceHtmlUrl = (executionId: string) => `${path(executionId)}/trace.html`;

/** The trace of the macro's newest finished run other than this one that still has a trace. */
export async function lastFinishedTraceOf(macroId: number, executionId: string): Promise<{ trace: Trace } | undefined> {
  const page = await listRuns({ macro_id: macroId, page_size: 20 });
  for (const run of page.rows) {
    if (run.execution_id === executionId || run.status === 'running' || !run.execution_id.startsWith('cr_')) continue;
    try {
      return { trace: await getTrace(run.execution_id) };
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'trace_not_found')) throw error;
    }
  }
  return undefined;
}
