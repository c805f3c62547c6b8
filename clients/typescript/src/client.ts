// createSvcClient: the typed client a key holder scripts with. `api` is the generated
// openapi-fetch client (every key route, typed from openapi.json); the named methods are the
// thin layer where raw calls are awkward: errors thrown as SvcApiError, every page of a list,
// following a log, waiting for a run.
import createClient, { type Client } from 'openapi-fetch';
import { describeRequest, type ErrorEnvelope, SvcApiError } from './errors.js';
import type { paths } from './generated/openapi.js';
import { followLogs, type FollowLogsOptions } from './follow-logs.js';
import { paginate } from './paging.js';
import { type FetchFunction, retryingFetch, type RetryOptions } from './retry.js';
import type {
  CloudRun, CodeState, CodeUpload, CodeUploadBody, Device, DeviceGroup, DeviceQuery, GroupQuery, Run, RunLog, RunLogQuery, RunQuery, StartRunBody, WhoAmI,
} from './types.js';
import { waitForRun, type WaitOptions } from './wait-for-run.js';

export interface SvcClientOptions {
  /** The whole key: `svc_` + 48 hex characters. Sent as `X-API-KEY` on every request. */
  apiKey: string;
  /** Where the service runs, e.g. `https://svc.example.com` (without `/api`). */
  baseUrl: string;
  /** Waiting out `Retry-After` on 429 and 503 (default: up to 2 retries, waits up to 60 s); `false` turns it off. */
  retry?: RetryOptions | false;
  /** The fetch to send with (default: the global one, in Node 20+ and browsers). */
  fetch?: FetchFunction;
  /** Extra headers for every request, e.g. a `User-Agent` naming your script. */
  headers?: Record<string, string>;
}

/** A cloud run by its numeric id or its `execution_id` (`cr_` + 24 hex). */
export type RunRef = number | string;

export interface SvcClient {
  /** The generated client: every key route, typed. Pass a call to `unwrap` to get its data or a thrown SvcApiError. */
  readonly api: Client<paths>;
  /** The key you hold and its owner (any key). */
  whoami(): Promise<WhoAmI>;
  readonly devices: {
    /** One page of your devices (`devices:control`). */
    page(query?: DeviceQuery & { page?: number }): Promise<{ rows: Device[]; page: number; page_size: number; total_rows: number; total_pages: number }>;
    /** Every device, page after page. */
    all(query?: DeviceQuery): AsyncGenerator<Device, void, undefined>;
  };
  readonly groups: {
    page(query?: GroupQuery & { page?: number }): Promise<{ rows: DeviceGroup[]; page: number; page_size: number; total_rows: number; total_pages: number }>;
    all(query?: GroupQuery): AsyncGenerator<DeviceGroup, void, undefined>;
  };
  /** The run history (`runs:read`). */
  readonly executions: {
    page(query?: RunQuery & { page?: number }): Promise<{ rows: Run[]; page: number; page_size: number; total_rows: number; total_pages: number }>;
    all(query?: RunQuery): AsyncGenerator<Run, void, undefined>;
    /** One run history record by its numeric id. */
    get(id: number): Promise<Run>;
    /** One read of a run's log (`runs:read`): the newest window, or the lines after `since_seq`. */
    logs(executionId: string, query?: RunLogQuery): Promise<RunLog>;
  };
  /** Cloud runs (`macros:run`). */
  readonly runs: {
    start(deviceId: number, body: StartRunBody): Promise<CloudRun>;
    get(run: RunRef): Promise<CloudRun>;
    stop(run: RunRef): Promise<CloudRun>;
  };
  /** Macro code snapshots (`macros:run`). */
  readonly code: {
    state(macroId: number): Promise<CodeState>;
    upload(macroId: number, body: CodeUploadBody): Promise<CodeUpload>;
  };
  /** Every line of a run's log as it arrives, until the run has ended and its last line is read. */
  followLogs(executionId: string, options?: FollowLogsOptions): AsyncGenerator<string, void, undefined>;
  /** Polls a cloud run until it has ended (`finished`, `failed` or `stopped`) and returns it. */
  waitForRun(run: RunRef, options?: WaitOptions): Promise<CloudRun>;
}

/** What a generated call resolves to: `data` on a 2xx, `error` (the parsed body) otherwise. */
type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The request each response answered, for error messages. */
const requests = new WeakMap<Response, string>();

/** The data of a generated call, or a SvcApiError carrying the envelope's `details.code`. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const answer = await call;
  if (answer.response.ok) return answer.data as T;
  const { response } = answer;
  const envelope = answer.error && typeof answer.error === 'object' ? (answer.error as ErrorEnvelope) : undefined;
  throw new SvcApiError({ status: response.status, envelope, headers: response.headers, request: requests.get(response) ?? new URL(response.url || 'http://unknown/').pathname });
}

export function createSvcClient(options: SvcClientOptions): SvcClient {
  if (!options.apiKey) throw new TypeError('createSvcClient: apiKey is required (an API key: svc_ + 48 hex)');
  if (!/^https?:\/\//.test(options.baseUrl)) throw new TypeError(`createSvcClient: baseUrl must start with http:// or https:// (got "${options.baseUrl}")`);
  const send = retryingFetch({ fetch: options.fetch ?? ((request) => globalThis.fetch(request)), retry: options.retry ?? {} });
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, 'x-api-key': options.apiKey },
    fetch: async (request) => {
      const response = await send(request);
      requests.set(response, describeRequest(request));
      return response;
    },
  });
  const client: SvcClient = {
    api,
    whoami: () => unwrap(api.GET('/api/whoami')),
    devices: {
      page: ({ page, ...query } = {}) => unwrap(api.GET('/api/emulator/devices', { params: { query: { ...query, page } } })),
      all: (query = {}) => paginate((page) => client.devices.page({ page_size: 200, ...query, page })),
    },
    groups: {
      page: ({ page, ...query } = {}) => unwrap(api.GET('/api/emulator/groups', { params: { query: { ...query, page } } })),
      all: (query = {}) => paginate((page) => client.groups.page({ page_size: 200, ...query, page })),
    },
    executions: {
      page: ({ page, ...query } = {}) => unwrap(api.GET('/api/executions', { params: { query: { ...query, page } } })),
      all: (query = {}) => paginate((page) => client.executions.page({ page_size: 200, ...query, page })),
      get: (id) => unwrap(api.GET('/api/executions/{id}', { params: { path: { id } } })),
      logs: (executionId, query = {}) => unwrap(api.GET('/api/executions/{execution_id}/logs', { params: { path: { execution_id: executionId }, query } })),
    },
    runs: {
      start: (deviceId, body) => unwrap(api.POST('/api/hosted/devices/{id}/run', { params: { path: { id: deviceId } }, body })),
      get: (run) => unwrap(api.GET('/api/hosted/runs/{id}', { params: { path: { id: run } } })),
      stop: (run) => unwrap(api.POST('/api/hosted/runs/{id}/stop', { params: { path: { id: run } } })),
    },
    code: {
      state: (macroId) => unwrap(api.GET('/api/macros/{id}/code-state', { params: { path: { id: macroId } } })),
      upload: (macroId, body) => unwrap(api.POST('/api/macros/{id}/code-snapshot', { params: { path: { id: macroId } }, body })),
    },
    followLogs: (executionId, followOptions) => followLogs(client, executionId, followOptions),
    waitForRun: (run, waitOptions) => waitForRun(client, run, waitOptions),
  };
  return client;
}
