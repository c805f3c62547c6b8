// The proxies module's settings (docs/configuration.md), composed by config.ts with the rest:
// where a proxy check asks for the exit address, and how long a check may take.
import { type Env, integer, url } from '../lib/env-settings.js';

/** ipify answers {"ip": "<caller's address>"}, the shape a proxy check reads. */
export const DEFAULT_PROXY_CHECK_URL = 'https://api.ipify.org/?format=json';

export interface ProxiesSettings {
  /** PROXY_CHECK_URL: the IP-echo endpoint a proxy check fetches through the proxy. */
  proxyCheckUrl: string;
  /** PROXY_CHECK_TIMEOUT_MS: a whole proxy check, connect to last byte. */
  proxyCheckTimeoutMs: number;
}

export function proxiesSettings(env: Env): ProxiesSettings {
  return {
    proxyCheckUrl: url(env, 'PROXY_CHECK_URL', ['http:', 'https:']) ?? DEFAULT_PROXY_CHECK_URL,
    proxyCheckTimeoutMs: integer(env, 'PROXY_CHECK_TIMEOUT_MS', 10_000, 100, 120_000),
  };
}
