// The devices module's settings (decisions.md §15; docs/configuration.md): where cloud devices
// run (DEVICE_HOST), the simulator's (SIM_*) and the ADB host's (ADB_SERVERS, ADB_DEVICES),
// composed by config.ts with the rest. The descriptions in SIM_APPS_DIR are in the
// simulator's own format, so the devices module reads and checks them when it builds its
// simulator (at start-up, stopping it with the file named).
import { resolve } from 'node:path';
import { ConfigError } from '../lib/config-error.js';
import { type Env, integer } from '../lib/env-settings.js';

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

function adbServers(env: Env): AdbServerAddress[] {
  const raw = (env.ADB_SERVERS || '127.0.0.1:5037').trim();
  const servers = raw.split(',').map((part) => adbServerAddress('ADB_SERVERS', part.trim()));
  const names = servers.map(formatAdbServer);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated) throw new ConfigError('ADB_SERVERS', `lists ${repeated} twice`);
  return servers;
}

/** `serial` or `host:port/serial`; a named server must be one of ADB_SERVERS. */
function adbDevices(env: Env, servers: AdbServerAddress[]): AdbDeviceSelector[] {
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


export interface DevicesSettings {
  /** DEVICE_HOST: where cloud devices run: the built-in simulator or ADB devices. */
  deviceHost: 'sim' | 'adb';
  /** SIM_BOOT_MS: how long a simulated device takes to boot. */
  simBootMs: number;
  /** SIM_EXTRA_APPS: more built-in sim apps to preinstall (`field-guide`). */
  simExtraApps: 'field-guide'[];
  /** SIM_SEED: seeds every simulated device's random generator at each boot (the same loading times and interrupts on every run); unset: random. */
  simSeed: number | undefined;
  /** SIM_APPS_DIR: a folder of app descriptions installed on every simulated device (read and checked by the devices module). */
  simAppsDir: string | undefined;
  /** ADB_SERVERS: the ADB servers to find devices on (DEVICE_HOST=adb). */
  adbServers: AdbServerAddress[];
  /** ADB_DEVICES: the devices the service may use; empty means every device the servers list. */
  adbDevices: AdbDeviceSelector[];
}

function simExtraApps(env: Env): 'field-guide'[] {
  const names = (env.SIM_EXTRA_APPS ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  for (const name of names) if (name !== 'field-guide') throw new ConfigError('SIM_EXTRA_APPS', `knows only field-guide, got "${name}"`);
  return [...new Set(names)] as 'field-guide'[];
}

function deviceHost(env: Env): 'sim' | 'adb' {
  const raw = (env.DEVICE_HOST || 'sim').trim().toLowerCase();
  if (raw !== 'sim' && raw !== 'adb') throw new ConfigError('DEVICE_HOST', `must be sim or adb, got "${env.DEVICE_HOST}"`);
  return raw;
}

export function devicesSettings(env: Env): DevicesSettings {
  const servers = adbServers(env);
  return {
    deviceHost: deviceHost(env),
    simBootMs: integer(env, 'SIM_BOOT_MS', 300, 0, 600_000),
    simExtraApps: simExtraApps(env),
    simSeed: env.SIM_SEED ? integer(env, 'SIM_SEED', 0, 0, 4_294_967_295) : undefined,
    simAppsDir: env.SIM_APPS_DIR ? resolve(env.SIM_APPS_DIR) : undefined,
    adbServers: servers,
    adbDevices: adbDevices(env, servers),
  };
}
