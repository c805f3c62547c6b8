// One webhook attempt over HTTPS with undici. The host is vetted on every attempt and the
// connection goes to the vetted address only: the connector's `lookup` answers with it, so
// there is no second DNS look-up a rebinding name could steer; TLS still verifies the
// certificate for the URL's host name (SNI and Host are the name). Proxy environment
// variables are ignored (a plain Agent never reads them). Redirects are not followed.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent } from 'undici';
import { AddressRefusedError, type AddressPolicy, vetHost } from '../../lib/address-policy.js';

export const CONNECT_TIMEOUT_MS = 5_000;
export const ATTEMPT_TIMEOUT_MS = 15_000;
const READ_LIMIT = 64 * 1024;
const BODY_KEPT = 16 * 1024;
const ERROR_KEPT = 1024;
const AGENTS_KEPT = 256;

export interface TransportOptions {
  addressPolicy: AddressPolicy;
  /**
   * Extra trusted certificate authorities, for tests. Operators use NODE_EXTRA_CA_CERTS,
   * which Node reads at start-up and which applies here when this is not set.
   */
  ca?: string[];
  /** TCP connect and TLS handshake; defaults to CONNECT_TIMEOUT_MS (decisions: 5 s). */
  connectTimeoutMs?: number;
  /** The whole attempt, from sending to the answer read; defaults to ATTEMPT_TIMEOUT_MS (decisions: 15 s). */
  attemptTimeoutMs?: number;
}

export type AttemptOutcome =
  | { kind: 'response'; status: number; retryAfter: string | undefined; body: string }
  /** The address was refused: the delivery ends early, as `failed`. */
  | { kind: 'refused'; error: string }
  /** No answer: connection, TLS or time-out failure. */
  | { kind: 'error'; error: string };

export interface AttemptRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export class WebhookTransport {
  /** Connections are kept per (host, vetted address), so keep-alive works and a new address never reuses an old pin. */
  private readonly agents = new Map<string, Agent>();

  constructor(private readonly options: TransportOptions) {}

  async send(request: AttemptRequest): Promise<AttemptOutcome> {
    const url = new URL(request.url);
    let address: string;
    try {
      address = await vetHost(url.hostname, this.options.addressPolicy);
    } catch (error) {
      if (error instanceof AddressRefusedError) return { kind: 'refused', error: clip(`address refused: ${error.message}`, ERROR_KEPT) };
      return { kind: 'error', error: clip(describe(error), ERROR_KEPT) };
    }
    const attemptTimeout = this.options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
    try {
      const response = await this.agentFor(url.hostname, address).request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(attemptTimeout),
        headersTimeout: attemptTimeout,
        bodyTimeout: attemptTimeout,
      });
      const retryAfter = response.headers['retry-after'];
      return { kind: 'response', status: response.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, body: await readCapped(response.body) };
    } catch (error) {
      return { kind: 'error', error: clip(describe(error), ERROR_KEPT) };
    }
  }

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((agent) => agent.close().catch(() => undefined)));
  }

  private agentFor(hostname: string, address: string): Agent {
    const key = `${hostname}|${address}`;
    let agent = this.agents.get(key);
    if (agent) {
      // Least recently used goes first when the map is full: re-insert on use.
      this.agents.delete(key);
      this.agents.set(key, agent);
      return agent;
    }
    const family = isIP(address);
    const pinned = (_host: string, options: LookupOptions, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
      if (options.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    };
    agent = new Agent({
      connect: { lookup: pinned, timeout: this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, ...(this.options.ca ? { ca: this.options.ca } : {}) },
      keepAliveTimeout: 10_000,
      connections: 16,
    });
    this.agents.set(key, agent);
    if (this.agents.size > AGENTS_KEPT) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, Agent];
      this.agents.delete(oldestKey);
      void oldest.close().catch(() => undefined);
    }
    return agent;
  }
}

/** Reads at most 64 KiB (then drops the connection) and keeps the first 16 KiB as text. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= READ_LIMIT) break;
    }
  } catch {
    // A body cut short still leaves the status, which is what decides the attempt.
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, BODY_KEPT).toString('utf8');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'the attempt timed out';
  return `${code ? `${code}: ` : ''}${error.message}${cause}`;
}

function clip(text: string, bytes: number): string {
  const buffer = Buffer.from(text);
  return buffer.length <= bytes ? text : buffer.subarray(0, bytes).toString('utf8');
}
