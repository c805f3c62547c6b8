// The fetch every call goes through: it sends the key, turns a network failure into a
// SvcConnectionError, and honours `Retry-After` on 429 (rate limited) and 503 (runs
// unavailable, server shutting down): it waits as long as the service asked and sends the
// request again. Both statuses mean the service did nothing with the request (the rate limit
// counts before any handler runs; a refused run start stores nothing), so a retry of a POST
// is as safe as one of a GET.
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

export function retryingFetch(options: { fetch: FetchFunction; retry: RetryOptions | false }): FetchFunction {
  const maxRetries = options.retry === false ? 0 : (options.retry.maxRetries ?? 2);
  const maxDelaySeconds = options.retry === false ? 0 : (options.retry.maxDelaySeconds ?? 60);
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      // A body can be read once: each attempt sends a copy, the original stays unread.
      const sent = attempt < maxRetries ? request.clone() : request;
      let response: Response;
      try {
        response = await options.fetch(sent);
      } catch (error) {
        if (request.signal?.aborted) throw error;
        throw new SvcConnectionError(describeRequest(request), error);
      }
      if ((response.status !== 429 && response.status !== 503) || attempt >= maxRetries) return response;
      const delay = parseRetryAfter(response.headers.get('retry-after')) ?? (response.status === 503 ? DEFAULT_503_DELAY_SECONDS : undefined);
      if (delay === undefined || delay > maxDelaySeconds) return response;
      await response.body?.cancel();
      await sleep(delay * 1000, request.signal);
    }
  };
}
