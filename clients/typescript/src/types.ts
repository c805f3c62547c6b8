// Names for the shapes a script handles most, taken from the generated types, so they follow
// openapi.json whenever it is regenerated.
import type { components, paths } from './generated/openapi.js';

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type Ok<Operation> = Operation extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201 | 202>]> : never;
type Query<Operation> = Operation extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type Body<Operation> = Operation extends { requestBody: { content: { 'application/json': infer B } } } ? B : Operation extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type Device = components['schemas']['Device'];
export type DeviceGroup = components['schemas']['DeviceGroup'];
/** A run history record (`GET /api/executions/{id}`). */
export type Run = components['schemas']['Run'];
export type RunStatus = Run['status'];
/** A cloud run's orchestration record (`GET /api/hosted/runs/{id}`). */
export type CloudRun = Ok<paths['/api/hosted/runs/{id}']['get']>;
export type CloudRunState = CloudRun['state'];
export type RunLog = Ok<paths['/api/executions/{execution_id}/logs']['get']>;
export type WhoAmI = Ok<paths['/api/whoami']['get']>;
export type CodeState = Ok<paths['/api/macros/{id}/code-state']['get']>;
export type CodeUpload = Ok<paths['/api/macros/{id}/code-snapshot']['post']>;

export type DeviceQuery = Omit<Query<paths['/api/emulator/devices']['get']>, 'page'>;
export type GroupQuery = Omit<Query<paths['/api/emulator/groups']['get']>, 'page'>;
export type RunQuery = Omit<Query<paths['/api/executions']['get']>, 'page'>;
export type RunLogQuery = Query<paths['/api/executions/{execution_id}/logs']['get']>;
export type StartRunBody = Body<paths['/api/hosted/devices/{id}/run']['post']>;
export type CodeUploadBody = Body<paths['/api/macros/{id}/code-snapshot']['post']>;

/** The states a cloud run does not leave. */
export const ENDED_STATES: readonly CloudRunState[] = ['finished', 'failed', 'stopped'];
