// Run history and logs, reporting a local run, and a cloud run's own state and stop (the
// cloud run routes take its numeric id or the record's `cr_` execution_id).
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { BodyOf, QueryOf } from '../../api/types';

export const listRuns = (query: QueryOf<'/api/executions', 'get'> = {}) => unwrap(api.GET('/api/executions', { params: { query } }));
export const getRun = (id: number) => unwrap(api.GET('/api/executions/{id}', { params: { path: { id } } }));
export const reportRun = (body: BodyOf<'/api/executions/report', 'post'>) => unwrap(api.POST('/api/executions/report', { body }));
export const runLog = (executionId: string, query: QueryOf<'/api/executions/{execution_id}/logs', 'get'>) =>
  unwrap(api.GET('/api/executions/{execution_id}/logs', { params: { path: { execution_id: executionId }, query } }));

export const getCloudRun = (ref: number | string) => unwrap(api.GET('/api/hosted/runs/{id}', { params: { path: { id: ref } } }));
export const stopCloudRun = (ref: number | string) => unwrap(api.POST('/api/hosted/runs/{id}/stop', { params: { path: { id: ref } } }));

/** The history record of a run just started: the newest runs of its device, matched by execution_id. */
export async function historyIdOf(deviceId: number, executionId: string): Promise<number | undefined> {
  const page = await listRuns({ device_id: deviceId, page_size: 20 });
  return page.rows.find((r) => r.execution_id === executionId)?.id;
}
