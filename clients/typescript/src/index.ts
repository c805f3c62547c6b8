// android-automation-client: a typed client for the automation service's key routes.
export { createSvcClient, unwrap, type RunRef, type SvcClient, type SvcClientOptions } from './client.js';
export { SvcApiError, SvcConnectionError, parseRetryAfter, type ErrorEnvelope } from './errors.js';
export { followLogs, type FollowLogsOptions } from './follow-logs.js';
export type { components, operations, paths } from './generated/openapi.js';
export { all, paginate, type Page } from './paging.js';
export type { FetchFunction, RetryOptions } from './retry.js';
export * from './types.js';
export { hasEnded, waitForRun, type WaitOptions } from './wait-for-run.js';
