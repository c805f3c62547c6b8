// Connects through a proxy for real and fetches the IP-echo URL: HTTP CONNECT (undici's
// ProxyAgent) for http and https proxies, SOCKS5 with username and password
// (socks-proxy-agent). The caller has already vetted the proxy's address; we connect to
// that address only, so the name cannot be re-resolved to somewhere else in between.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { SocksProxyAgent } from 'socks-proxy-agent';
import { ProxyAgent, request as undiciRequest } from 'undici';
import type { ProxyCheckError, ProxyScheme } from '../../core/values.js';

/** A check that got no answer through the proxy; `targeting_mismatch` is decided after one. */
export type CheckError = Exclude<ProxyCheckError, 'targeting_mismatch'>;

export type CheckOutcome = { reachable: true; exitIp: string; latencyMs: number } | { reachable: false; error: CheckError };

export interface CheckTarget {
  scheme: ProxyScheme;
  /** The name the user gave, for TLS to an https proxy. */
  host: string;
  /** The vetted address to connect to. */
  address: string;
  port: number;
  username: string;
  password: string;
}

const BODY_LIMIT = 4096;

class CheckFailure extends Error {
  constructor(readonly kind: CheckError) {
    super(kind);
  }
}

/** Maps what the clients throw onto the three outcomes of decisions.md §6. */
function classify(error: unknown): CheckError {
  if (error instanceof CheckFailure) return error.kind;
  const e = error as { code?: string; name?: string; message?: string; cause?: unknown };
  const text = `${e.name ?? ''} ${e.code ?? ''} ${e.message ?? ''}`;
  if (/\(407\)|\b407\b|authentication failed|auth.*(rejected|failed)/i.test(text)) return 'auth_failed';
  if (/timeout|timed out|aborted|ETIMEDOUT/i.test(text)) return 'timeout';
  if (e.cause && e.cause !== error) return classify(e.cause);
  return 'unreachable';
}

/** The IP the echo service saw: `{"ip": …}` (ipify) or `{"origin": …}` (httpbin). */
function exitIpOf(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new CheckFailure('unreachable');
  }
  const record = parsed as { ip?: unknown; origin?: unknown };
  const ip = typeof record.ip === 'string' ? record.ip : typeof record.origin === 'string' ? record.origin.split(',')[0].trim() : '';
  if (!isIP(ip)) throw new CheckFailure('unreachable');
  return ip;
}

const bracket = (address: string) => (isIP(address) === 6 ? `[${address}]` : address);

/**
 * TLS options for the connection to an https proxy. In production the system's CAs (plus
 * NODE_EXTRA_CA_CERTS) decide; tests pass the CA of their local TLS proxy here.
 */
export interface ProxyTlsOptions {
  ca?: string | string[];
}

async function viaHttpProxy(target: CheckTarget, checkUrl: string, timeoutMs: number, started: number, tls: ProxyTlsOptions): Promise<CheckOutcome> {
  const token = target.username ? `Basic ${Buffer.from(`${target.username}:${target.password}`).toString('base64')}` : undefined;
  const agent = new ProxyAgent({
    uri: `${target.scheme}://${bracket(target.address)}:${target.port}`,
    ...(token ? { token } : {}),
    // Always tunnel (CONNECT), also for an http:// check URL, so every scheme is checked the same way.
    proxyTunnel: true,
    proxyTls: { servername: isIP(target.host) ? undefined : target.host, ...tls },
    connect: { timeout: timeoutMs },
  });
  let timer: NodeJS.Timeout | undefined;
  // undici does not give up on a CONNECT that is never answered, signal or not: the
  // deadline is ours, and the agent is destroyed (not closed, which would wait for it).
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailure('timeout')), timeoutMs);
  });
  const attempt = (async (): Promise<CheckOutcome> => {
    const response = await undiciRequest(checkUrl, { dispatcher: agent, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    // Connect plus first byte: the headers have just arrived.
    const latencyMs = Math.round(performance.now() - started);
    if (response.statusCode === 407) throw new CheckFailure('auth_failed');
    const body = (await response.body.text()).slice(0, BODY_LIMIT);
    return { reachable: true, exitIp: exitIpOf(body), latencyMs };
  })();
  attempt.catch(() => undefined);
  try {
    return await Promise.race([attempt, deadline]);
  } finally {
    clearTimeout(timer);
    agent.destroy().catch(() => undefined);
  }
}

function viaSocks(target: CheckTarget, checkUrl: string, timeoutMs: number, started: number): Promise<CheckOutcome> {
  const credentials = target.username ? `${encodeURIComponent(target.username)}:${encodeURIComponent(target.password)}@` : '';
  // socks5h: the proxy resolves the check URL's name, as the device's traffic would be.
  const agent = new SocksProxyAgent(`socks5h://${credentials}${bracket(target.address)}:${target.port}`, { timeout: timeoutMs });
  const url = new URL(checkUrl);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<CheckOutcome>((resolve, reject) => {
    const req = send(url, { agent, method: 'GET', timeout: timeoutMs }, (response) => {
      const latencyMs = Math.round(performance.now() - started);
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (body.length < BODY_LIMIT) body += chunk;
      });
      response.on('end', () => {
        try {
          resolve({ reachable: true, exitIp: exitIpOf(body), latencyMs });
        } catch (error) {
          reject(error);
        }
      });
      response.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(new CheckFailure('timeout')), timeoutMs);
    req.on('timeout', () => req.destroy(new CheckFailure('timeout')));
    req.on('error', reject);
    req.on('close', () => {
      clearTimeout(timer);
      agent.destroy();
    });
    req.end();
  });
}

export interface ProxyChecker {
  check(target: CheckTarget): Promise<CheckOutcome>;
}

export class LiveProxyChecker implements ProxyChecker {
  constructor(
    private readonly checkUrl: string,
    private readonly timeoutMs: number,
    private readonly proxyTls: ProxyTlsOptions = {},
  ) {}

  async check(target: CheckTarget): Promise<CheckOutcome> {
    const started = performance.now();
    try {
      return target.scheme === 'socks5'
        ? await viaSocks(target, this.checkUrl, this.timeoutMs, started)
        : await viaHttpProxy(target, this.checkUrl, this.timeoutMs, started, this.proxyTls);
    } catch (error) {
      return { reachable: false, error: classify(error) };
    }
  }
}
