// The fetch every call goes through: it sends the key, turns a network failure into a
// SvcConnectionError, and honours `Retry-After` on 429 (rate limited) and 503 (runs
// unavailable, server shutting down): it waits as long as the service asked and sends the
// request again. Both statuses mean the service did nothing with the request (the rate limit
// counts before any handler runs; a refused run start stores nothing), so a retry of a POST
// is as safe as one of a GET.
// Every POST carries a fresh `Idempotency-Key` (decisions.md §19), the same on each attempt: a
// connection that drops before the answer is sent once more (the service replays the kept
// answer instead of starting a second run), and a 409 `idempotency_key_in_use` (the first
// attempt is still being processed) is waited out like a 429.
import { describeRequest, parseRetryAfter, SvcConnectionError } from './errors.js';
import { sleep } from './sleep.js';

export interface RetryOptions {
  /** How many times one request is sent again after a 429 or 503 (default 2; 0 turns retrying off). */
  maxRetries?: number;
  /** The longest `Retry-After` (seconds) the client waits out; a longer one is answered at once as the error (default 60). */
  maxDelaySeconds?: number;
}

/** The wait for a 503 that names none (a server that is shutting down: another process may answer). */
const DEFAULT_503_DELAY_SECONDS = 1;

export type FetchFunction = (input: Request) => Promise<Response>;

/** A fresh key for one call (Node 19+ and browsers have randomUUID). */
const freshKey = () => globalThis.crypto.randomUUID();

/** A 409 that asks to wait: the same key's first request is still being processed. */
const inUse = (response: Response) => response.status === 409 && response.headers.has('retry-after');

export function retryingFetch(options: { fetch: FetchFunction; retry: RetryOptions | false }): FetchFunction {
  const maxRetries = options.retry === false ? 0 : (options.retry.maxRetries ?? 2);
  const maxDelaySeconds = options.retry === false ? 0 : (options.retry.maxDelaySeconds ?? 60);
  const reconnects = options.retry === false ? 0 : 1;
  return async (request) => {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', freshKey());
    let dropped = 0;
    for (let attempt = 0; ; attempt++) {
      // A body can be read once: each attempt sends a copy, the original stays unread.
      const sent = attempt < maxRetries || dropped < reconnects ? request.clone() : request;
      let response: Response;
      try {
        response = await options.fetch(sent);
      } catch (error) {
        if (request.signal?.aborted) throw error;
        // Once, with the same key: safe even when the first attempt was processed.
        if (dropped < reconnects) {
          dropped += 1;
          attempt -= 1;
          continue;
        }
        throw new SvcConnectionError(describeRequest(request), error);
      }
      if ((response.status !== 429 && response.status !== 503 && !inUse(response)) || attempt >= maxRetries) return response;
      const delay = parseRetryAfter(response.headers.get('retry-after')) ?? (response.status === 503 ? DEFAULT_503_DELAY_SECONDS : undefined);
      if (delay === undefined || delay > maxDelaySeconds) return response;
      await response.body?.cancel();
      await sleep(delay * 1000, request.signal);
    }
  };
}
