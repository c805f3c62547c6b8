// The SDK's two failures: the service answered with an error (SvcApiError, carrying the
// envelope's `details.code`), or it could not be reached at all (SvcConnectionError).

/** The error envelope every failing route answers: `{message, details: {code, ...}}`. */
export interface ErrorEnvelope {
  message?: string;
  details?: { code?: string; [key: string]: unknown };
}

/** The service answered with a status outside 2xx. */
export class SvcApiError extends Error {
  override readonly name = 'SvcApiError';
  /** The HTTP status: 401, 402, 403, 404, 409, 422, 429, 503, … */
  readonly status: number;
  /** `details.code` of the envelope (`insufficient_scope`, `not_found`, `rate_limit_exceeded`, …); `http_<status>` when the body carried none. */
  readonly code: string;
  /** The whole `details` object: `required_scopes` on a 403, `errors` on a 422, `limit` on a 413. */
  readonly details: Record<string, unknown>;
  /** Seconds the service asked to wait (`Retry-After`), on 429 and 503. */
  readonly retryAfter?: number;
  /** `X-RateLimit-Scope` on a 429: `key` or `account`. */
  readonly rateLimitScope?: string;
  /** The request, as `GET /api/whoami`. */
  readonly request: string;
  /** The envelope's `message` as the service wrote it (the error's own message adds the request, status and code). */
  readonly serviceMessage: string;

  constructor(init: { status: number; envelope: ErrorEnvelope | undefined; request: string; headers?: Headers }) {
    const { status, envelope, request, headers } = init;
    const code = typeof envelope?.details?.code === 'string' ? envelope.details.code : `http_${status}`;
    super(`${request} answered ${status} ${code}: ${envelope?.message ?? 'no message'}`);
    this.status = status;
    this.code = code;
    this.details = { ...envelope?.details, code };
    this.request = request;
    this.serviceMessage = envelope?.message ?? '';
    const retryAfter = parseRetryAfter(headers?.get('retry-after') ?? null);
    if (retryAfter !== undefined) this.retryAfter = retryAfter;
    const scope = headers?.get('x-ratelimit-scope');
    if (status === 429 && scope) this.rateLimitScope = scope;
  }
}

/** The request never got an answer: the server is down, the address is wrong, or the network failed. */
export class SvcConnectionError extends Error {
  override readonly name = 'SvcConnectionError';
  readonly request: string;
  constructor(request: string, cause: unknown) {
    const reason = (cause as { cause?: { message?: string } })?.cause?.message ?? (cause instanceof Error ? cause.message : String(cause));
    super(`${request} could not reach the service: ${reason}`, { cause });
    this.request = request;
  }
}

/**
 * `Retry-After` as seconds: the delay form (`"30"`) or the HTTP-date form; undefined when absent
 * or unreadable. A date in the past is 0.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** `METHOD /path` of a request, for messages (no query string: it may hold filters, never secrets, but stays short). */
export function describeRequest(request: Request): string {
  return `${request.method} ${new URL(request.url).pathname}`;
}
