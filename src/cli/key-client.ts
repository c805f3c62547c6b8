// The SDK client the key holder's commands (`svc runs`, `svc devices`) share: SVC_API_KEY
// against SVC_BASE_URL. The commands use the published SDK (clients/typescript, imported as
// #svc-client), not server code, so they behave as any script would.
import { createSvcClient, SvcApiError, type SvcClient, SvcConnectionError } from '#svc-client';
import type { LoadedConfig } from '../config.js';
import { CliError } from '../lib/cli-error.js';

/** Exit code of a key command that could not do its work: bad usage, refused, unreachable. (0, 1, 2 are a followed run's outcome.) */
export const COMMAND_FAILED = 3;

export function keyClient(config: LoadedConfig): SvcClient {
  if (!config.svcApiKey) throw new CliError('Set SVC_API_KEY to an API key (svc_ + 48 hex), and SVC_BASE_URL to the server.', COMMAND_FAILED);
  // A rate limit is waited out (up to 30 s, at most twice); a longer wait (503 runs_unavailable
  // asks for 60 s) is reported with its Retry-After, for the person or script to decide.
  return createSvcClient({ apiKey: config.svcApiKey, baseUrl: config.svcBaseUrl, retry: { maxRetries: 2, maxDelaySeconds: 30 }, headers: { 'user-agent': 'svc-cli' } });
}

/** The SDK's failures as one line for the terminal: the status, `details.code` and the service's message. */
export async function reportingFailures<T>(baseUrl: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SvcApiError) {
      const scopes = Array.isArray(error.details.required_scopes) && error.details.required_scopes.length ? ` (a key with ${error.details.required_scopes.join(' or ')} would do)` : '';
      const wait = error.retryAfter !== undefined ? ` Retry in ${error.retryAfter} s.` : '';
      throw new CliError(`${error.message}${scopes}${wait}`, COMMAND_FAILED);
    }
    if (error instanceof SvcConnectionError) throw new CliError(`${error.message} (SVC_BASE_URL is ${baseUrl})`, COMMAND_FAILED);
    throw error;
  }
}
