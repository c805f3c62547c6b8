// ADB_SERVERS and ADB_DEVICES (decisions.md §9), parsed and checked for config.ts: which ADB
// servers to reach and which device serials the service may use.
import { ConfigError } from './lib/config-error.js';
import type { Env } from './lib/env-settings.js';

export interface AdbServerAddress {
  host: string;
  port: number;
}

export interface AdbDeviceSelector {
  serial: string;
  /** Set when the entry names its server (`host:port/serial`). */
  server?: AdbServerAddress;
}

/** `host:port`, with IPv6 hosts in brackets, as ADB_SERVERS and ADB_DEVICES write them. */
export function formatAdbServer(server: AdbServerAddress): string {
  return server.host.includes(':') ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;
}

const HOST_NAME = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/;

/** `host:port` or `[ipv6]:port`; the port defaults to 5037, ADB's. */
function adbServerAddress(name: string, raw: string): AdbServerAddress {
  const match = /^\[([0-9A-Fa-f:.]+)\](?::(\d+))?$/.exec(raw) ?? /^([^:[\]]+)(?::(\d+))?$/.exec(raw);
  if (!match || (!match[0].startsWith('[') && !HOST_NAME.test(match[1]))) throw new ConfigError(name, `"${raw}" is not host:port (for example 127.0.0.1:5037 or [::1]:5037)`);
  const port = match[2] === undefined ? 5037 : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigError(name, `"${raw}" has a port outside 1 to 65535`);
  return { host: match[1].toLowerCase(), port };
}

export function adbServers(env: Env): AdbServerAddress[] {
  const raw = (env.ADB_SERVERS || '127.0.0.1:5037').trim();
  const servers = raw.split(',').map((part) => adbServerAddress('ADB_SERVERS', part.trim()));
  const names = servers.map(formatAdbServer);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated) throw new ConfigError('ADB_SERVERS', `lists ${repeated} twice`);
  return servers;
}

/** `serial` or `host:port/serial`; a named server must be one of ADB_SERVERS. */
export function adbDevices(env: Env, servers: AdbServerAddress[]): AdbDeviceSelector[] {
  const raw = (env.ADB_DEVICES ?? '').trim();
  if (raw === '') return [];
  const known = servers.map(formatAdbServer);
  const selectors = raw.split(',').map((part): AdbDeviceSelector => {
    const entry = part.trim();
    const slash = entry.lastIndexOf('/');
    const serial = slash >= 0 ? entry.slice(slash + 1) : entry;
    if (!/^[\x21-\x7e]{1,200}$/.test(serial) || serial.includes(',')) throw new ConfigError('ADB_DEVICES', `"${entry}" is not a device serial (or host:port/serial)`);
    if (slash < 0) return { serial };
    const server = adbServerAddress('ADB_DEVICES', entry.slice(0, slash));
    if (!known.includes(formatAdbServer(server))) throw new ConfigError('ADB_DEVICES', `"${entry}" names the server ${formatAdbServer(server)}, which is not in ADB_SERVERS`);
    return { serial, server };
  });
  const names = selectors.map((d) => (d.server ? `${formatAdbServer(d.server)}/${d.serial}` : d.serial));
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated) throw new ConfigError('ADB_DEVICES', `lists ${repeated} twice`);
  return selectors;
}

