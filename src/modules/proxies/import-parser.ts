// The import line format of decisions.md §6. Parsed by hand, not with URL: passwords may
// hold ':' and '@', which URL parsing would split or reject. Nothing here ever puts a
// password into an error message or into the `raw` echo of a line.
import ipaddr from 'ipaddr.js';
import type { ProxyScheme } from '../../db/schema.js';

export interface ParsedProxy {
  scheme: ProxyScheme;
  host: string;
  port: number;
  username: string;
  password: string;
}

export type LineResult = { kind: 'skip' } | { kind: 'proxy'; proxy: ParsedProxy } | { kind: 'error'; reason: string };

export const MASK = '********';
export const IMPORT_MAX_LINES = 10_000;
const FIELD_MAX = 255;
const RAW_ECHO_MAX = 200;

const SCHEMES: Record<string, ProxyScheme> = { http: 'http', https: 'https', socks5: 'socks5', socks: 'socks5', socks5h: 'socks5' };
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** A host name or IPv4 address as written, or an IPv6 address without its brackets; lower-cased. */
export function normaliseHost(raw: string): string | null {
  const host = raw.toLowerCase();
  if (host.includes(':')) return ipaddr.IPv6.isValid(host) ? ipaddr.IPv6.parse(host).toString() : null;
  return HOST_NAME.test(host) ? host : null;
}

function parsePort(raw: string): number | null {
  if (!/^\d{1,5}$/.test(raw)) return null;
  const port = Number(raw);
  return port >= 1 && port <= 65535 ? port : null;
}

/** `host:port` or `[v6]:port`, and whatever follows the port (`:user:pass`) unparsed. */
function splitHostPort(text: string): { host: string; port: string; rest: string | null } | string {
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return 'an IPv6 address needs its closing ]';
    const after = text.slice(close + 1);
    if (!after.startsWith(':')) return 'a port is required after the address';
    const next = after.indexOf(':', 1);
    return { host: text.slice(1, close), port: next < 0 ? after.slice(1) : after.slice(1, next), rest: next < 0 ? null : after.slice(next + 1) };
  }
  const first = text.indexOf(':');
  if (first < 0) return 'a port is required (host:port)';
  const second = text.indexOf(':', first + 1);
  return { host: text.slice(0, first), port: second < 0 ? text.slice(first + 1) : text.slice(first + 1, second), rest: second < 0 ? null : text.slice(second + 1) };
}

function finish(scheme: ProxyScheme, hostRaw: string, portRaw: string, username: string, password: string): LineResult {
  if (hostRaw.startsWith('[') === false && hostRaw.includes(':')) return { kind: 'error', reason: 'an IPv6 address must be written in brackets, as [2001:db8::1]:8080' };
  const host = normaliseHost(hostRaw.replace(/^\[(.*)\]$/, '$1'));
  if (!host) return { kind: 'error', reason: 'the host is not a valid host name or IP address' };
  const port = parsePort(portRaw);
  if (port === null) return { kind: 'error', reason: 'the port must be a number from 1 to 65535' };
  if (password && !username) return { kind: 'error', reason: 'a password needs a username' };
  if (username.length > FIELD_MAX || password.length > FIELD_MAX) return { kind: 'error', reason: `the username and password are at most ${FIELD_MAX} characters` };
  if (/\s/.test(username)) return { kind: 'error', reason: 'the username must not contain spaces' };
  return { kind: 'proxy', proxy: { scheme, host, port, username, password } };
}

export function parseProxyLine(line: string): LineResult {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return { kind: 'skip' };
  const marker = text.indexOf('://');
  if (marker >= 0) {
    const scheme = SCHEMES[text.slice(0, marker).toLowerCase()];
    if (!scheme) return { kind: 'error', reason: 'the scheme must be http, https or socks5 (socks and socks5h mean socks5)' };
    let rest = text.slice(marker + 3).replace(/\/$/, '');
    let username = '';
    let password = '';
    // The last '@' ends the credentials, so a password may contain '@'.
    const at = rest.lastIndexOf('@');
    if (at >= 0) {
      const credentials = rest.slice(0, at);
      const colon = credentials.indexOf(':');
      username = colon < 0 ? credentials : credentials.slice(0, colon);
      password = colon < 0 ? '' : credentials.slice(colon + 1);
      rest = rest.slice(at + 1);
    }
    const parts = splitHostPort(rest);
    if (typeof parts === 'string') return { kind: 'error', reason: parts };
    if (parts.rest !== null) return { kind: 'error', reason: 'expected scheme://user:pass@host:port' };
    return finish(scheme, rest.startsWith('[') ? `[${parts.host}]` : parts.host, parts.port, username, password);
  }
  if (!text.startsWith('[') && (ipaddr.IPv6.isValid(text) || ipaddr.IPv6.isValid(text.slice(0, text.lastIndexOf(':'))))) {
    return { kind: 'error', reason: 'an IPv6 address must be written in brackets, as [2001:db8::1]:8080' };
  }
  const parts = splitHostPort(text);
  if (typeof parts === 'string') return { kind: 'error', reason: parts };
  let username = '';
  let password = '';
  if (parts.rest !== null) {
    // host:port:user:pass; every further ':' belongs to the password.
    const colon = parts.rest.indexOf(':');
    if (colon < 0) return { kind: 'error', reason: 'expected host:port or host:port:user:pass' };
    username = parts.rest.slice(0, colon);
    password = parts.rest.slice(colon + 1);
  }
  const host = text.startsWith('[') ? `[${parts.host}]` : parts.host;
  return finish('http', host, parts.port, username, password);
}

/** The line as the user wrote it, with anything that may be a password replaced by the mask. */
export function maskLine(line: string): string {
  let text = line.trim();
  const marker = text.indexOf('://');
  if (marker >= 0) {
    const at = text.lastIndexOf('@');
    if (at > marker) {
      const credentials = text.slice(marker + 3, at);
      const colon = credentials.indexOf(':');
      const user = colon < 0 ? credentials : credentials.slice(0, colon);
      text = `${text.slice(0, marker + 3)}${user}${colon < 0 ? '' : `:${MASK}`}${text.slice(at)}`;
    }
  } else {
    // Keep host and port (and the user); everything after the third field may be secret.
    const start = text.startsWith('[') ? Math.max(text.indexOf(']'), 0) : 0;
    let seen = 0;
    for (let i = start; i < text.length; i++) {
      if (text[i] !== ':') continue;
      seen += 1;
      if (seen === 2) {
        const next = text.indexOf(':', i + 1);
        text = next < 0 ? `${text.slice(0, i + 1)}${MASK}` : `${text.slice(0, next + 1)}${MASK}`;
        break;
      }
    }
  }
  return text.length > RAW_ECHO_MAX ? `${text.slice(0, RAW_ECHO_MAX)}…` : text;
}

/** The duplicate rule of decisions.md §6: scheme, host, port and username. */
export function identityOf(proxy: { scheme: string; host: string; port: number; username: string }): string {
  return `${proxy.scheme}|${proxy.host}|${proxy.port}|${proxy.username}`;
}
