// The one place that reads the environment. Every setting is validated here, and a bad
// value stops start-up with a message that names it. Start-up then resolves the secret key
// (`withSecretKey`), and everything else receives that `Config`, whose key is never missing.
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { adbDevices, adbServers, type AdbDeviceSelector, type AdbServerAddress, formatAdbServer } from './config-adb.js';
import { authoringSettings, type AuthoringSettings } from './config-authoring.js';
import { mcpAllowedOrigins } from './config-mcp.js';
import { ConfigError } from './lib/config-error.js';
import { boolean, type Env, integer, url } from './lib/env-settings.js';
import { type RunSandboxSettings, runSandboxSettings } from './lib/run-sandbox-settings.js';
import { type RunTraceSettings, runTraceSettings } from './lib/run-trace-settings.js';
import { currentIdentity, type RunAs, runAsFor, type ServiceIdentity } from './lib/run-user.js';
import { keyFileIn, parseSecretKey } from './lib/secret-key.js';
import { KEY_PATTERN } from './core/values.js';
import { FIELD_GUIDE_PACKAGE, loadSimAppsDir, type SimApp } from './modules/devices/index.js';

/** The settings as read from the environment, before start-up has resolved the secret key. */
export interface LoadedConfig {
  port: number;
  host: string;
  baseUrl: string;
  /** MCP_ALLOWED_ORIGINS: browser origins /mcp accepts besides BASE_URL's (config-mcp.ts). */
  mcpAllowedOrigins: string[];
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  redisPrefix: string;
  /** 32 bytes from SECRET_KEY; undefined on the embedded default until `withSecretKey` reads or makes the key file. */
  secretKey: Buffer | undefined;
  adminToken: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  rateLimitPerKey: number;
  rateLimitPerAccount: number;
  authRateLimitPerIp: number;
  /** SVC_API_KEY: the key `svc code push` uploads with (macros:run); unset until a user sets it. */
  svcApiKey: string | undefined;
  /** SVC_BASE_URL: the server `svc code push` uploads to; defaults to BASE_URL. */
  svcBaseUrl: string;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: lets webhooks and proxy checks reach private addresses (development, tests). */
  allowPrivateNetworks: boolean;
  /** PROXY_CHECK_URL: the IP-echo endpoint a proxy check fetches through the proxy. */
  proxyCheckUrl: string;
  /** PROXY_CHECK_TIMEOUT_MS: a whole proxy check, connect to last byte. */
  proxyCheckTimeoutMs: number;
  /** WEBHOOK_RETRY_SCHEDULE: seconds before each webhook attempt; the first entry is 0 (at once), one entry per attempt. */
  webhookRetrySchedule: number[];
  /** WEBHOOK_DISABLE_AFTER_FAILURES: an endpoint is disabled when its failure streak reaches this many attempts… */
  webhookDisableAfterFailures: number;
  /** WEBHOOK_DISABLE_AFTER_HOURS (as ms): …and the streak's first failure is at least this old. */
  webhookDisableAfterMs: number;
  /** WEBHOOK_POLL_MS: how often an idle webhook worker looks for due deliveries. */
  webhookPollMs: number;
  /** WEBHOOK_CONCURRENCY: deliveries one worker process sends at the same time. */
  webhookConcurrency: number;
  /** RUN_WORKERS: whether `serve` also runs the background workers (webhook deliveries, device lifecycle). */
  runWorkers: boolean;
  visionThreads: number;
  /** DEVICE_HOST: where cloud devices run: the built-in simulator or ADB devices. */
  deviceHost: 'sim' | 'adb';
  /** SIM_BOOT_MS: how long a simulated device takes to boot. */
  simBootMs: number;
  /** SIM_EXTRA_APPS: more built-in sim apps to preinstall (`field-guide`). */
  simExtraApps: 'field-guide'[];
  /** SIM_SEED: seeds every simulated device's random generator at each boot (the same loading times and interrupts on every run); unset: random. */
  simSeed: number | undefined;
  /** SIM_APPS_DIR: a folder of app descriptions installed on every simulated device. */
  simAppsDir: string | undefined;
  /** The descriptions read from SIM_APPS_DIR at start-up, each checked. */
  simApps: SimApp[];
  /** ADB_SERVERS: the ADB servers to find devices on (DEVICE_HOST=adb). */
  adbServers: AdbServerAddress[];
  /** ADB_DEVICES: the devices the service may use; empty means every device the servers list. */
  adbDevices: AdbDeviceSelector[];
  /** SCHEDULE_MISFIRE_GRACE_S (as ms): after downtime, the latest missed fire time still runs if it is younger than this (§14). */
  scheduleMisfireGraceMs: number;
  /** SCHEDULER_POLL_MS: how often a scheduler worker looks for schedules whose fire time has come. */
  schedulerPollMs: number;
  /** SCHEDULER_CONCURRENCY: fire passes (and run starts) one worker process makes at the same time. */
  schedulerConcurrency: number;
  /** SCHEDULER_BATCH: schedules one fire pass records together (one statement for their occurrences, one for their next fire times). */
  schedulerBatch: number;
  /** RUNS_ENABLED: whether cloud runs are accepted and run at all (off: 503 runs_unavailable). */
  runsEnabled: boolean;
  /** RUNS_PER_WORKER: cloud runs one process runs at the same time. */
  runsPerWorker: number;
  /** RUNS_DIR: where each run gets its private folder (the unpacked code and its HOME), removed afterwards. */
  runsDir: string;
  /** RUN_MAX_SECONDS: a run's wall-time limit. */
  runMaxSeconds: number;
  /** RUN_MAX_MEMORY_MB: a run's memory limit (the Python process's address space). */
  runMaxMemoryMb: number;
  /** RUN_PATH: the PATH a run gets (never the server's own), where `python3` is looked up. */
  runPath: string;
  /** RUN_AS_USER and RUN_UIDS, resolved: whom a run's process switches to; null when runs keep the service's user (it is not root). */
  runAs: RunAs | null;
  /** AUTHOR_*: the authoring agent's model endpoint, limits and credits (config-authoring.ts). */
  authoring: AuthoringSettings;
  /** RUN_SANDBOX, RUN_MAX_PROCESSES, RUN_MAX_DISK_MB, RUN_MAX_LOG_MB, RUN_ALLOW_PRIVATE_NETWORKS. */
  runSandbox: RunSandboxSettings;
  /** RUN_TRACE, RUN_TRACE_MAX_FRAMES, RUN_TRACE_DAYS (lib/run-trace-settings.ts). */
  runTrace: RunTraceSettings;
}

/** The settings every part of the service receives: the secret key is resolved, so no service checks for it. */
export type Config = Omit<LoadedConfig, 'secretKey'> & {
  /** 32 bytes: SECRET_KEY, or on the embedded default the key kept in DATA_DIR. */
  secretKey: Buffer;
};

export { ConfigError, formatAdbServer, parseSecretKey };
export type { AdbDeviceSelector, AdbServerAddress };

/** ipify answers {"ip": "<caller's address>"}, the shape a proxy check reads. */
export const DEFAULT_PROXY_CHECK_URL = 'https://api.ipify.org/?format=json';

/** The standard system folders: a run finds `python3` there, and nothing of the server's own PATH. */
export const DEFAULT_RUN_PATH = '/usr/local/bin:/usr/bin:/bin';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Comma-separated whole seconds; the first attempt is at once, so the list starts with 0. */
function retrySchedule(env: Env, name: string, fallback: string): number[] {
  const raw = (env[name] || fallback).trim();
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d+$/.test(part))) throw new ConfigError(name, `expected comma-separated whole seconds, got "${raw}"`);
  const delays = parts.map(Number);
  if (delays.length > 50) throw new ConfigError(name, 'at most 50 attempts');
  if (delays[0] !== 0) throw new ConfigError(name, 'must start with 0 (the first attempt is made at once)');
  if (delays.some((delay) => delay > 7 * 86_400)) throw new ConfigError(name, 'each delay must be at most 604800 seconds (7 days)');
  return delays;
}

/** A colon list of absolute folders, as PATH is written; no empty entries (they would mean the working directory). */
function searchPath(env: Env, name: string, fallback: string): string {
  const raw = (env[name] || fallback).trim();
  const parts = raw.split(':');
  const bad = parts.find((part) => !part.startsWith('/') || /[\0\n]/.test(part));
  if (bad !== undefined) throw new ConfigError(name, `must be a colon-separated list of absolute folders (like /usr/local/bin:/usr/bin:/bin); "${bad}" is not one`);
  return raw;
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

/** `identity` is who the service runs as (RUN_AS_USER and RUN_UIDS depend on it); tests pass their own. */
export function loadConfig(env: Env = process.env, identity: ServiceIdentity = currentIdentity()): LoadedConfig {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  const baseUrl = (url(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const secretKey = env.SECRET_KEY ? parseSecretKey(env.SECRET_KEY) : undefined;
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const svcApiKey = env.SVC_API_KEY || undefined;
  if (svcApiKey !== undefined && !KEY_PATTERN.test(svcApiKey)) throw new ConfigError('SVC_API_KEY', 'must be a whole API key: svc_ followed by 48 lowercase hex characters');
  const servers = adbServers(env);
  const adminToken = env.ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters');
  }
  return {
    port,
    host,
    baseUrl,
    mcpAllowedOrigins: mcpAllowedOrigins(env),
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: env.REDIS_PREFIX || 'svc:',
    secretKey,
    adminToken,
    logLevel,
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    rateLimitPerKey: integer(env, 'RATE_LIMIT_PER_KEY', 120, 1, 1_000_000_000),
    rateLimitPerAccount: integer(env, 'RATE_LIMIT_PER_ACCOUNT', 300, 1, 1_000_000_000),
    authRateLimitPerIp: integer(env, 'AUTH_RATE_LIMIT_PER_IP', 20, 1, 1_000_000_000),
    svcApiKey,
    svcBaseUrl: (url(env, 'SVC_BASE_URL', ['http:', 'https:']) ?? baseUrl).replace(/\/+$/, ''),
    webhookRetrySchedule: retrySchedule(env, 'WEBHOOK_RETRY_SCHEDULE', '0,5,300,1800,7200,18000,36000,36000'),
    webhookDisableAfterFailures: integer(env, 'WEBHOOK_DISABLE_AFTER_FAILURES', 20, 1, 1_000_000),
    webhookDisableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 24, 0, 8760) * 3_600_000,
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 500, 10, 600_000),
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1000),
    runWorkers: boolean(env, 'RUN_WORKERS', true),
    visionThreads: integer(env, 'VISION_THREADS', Math.min(4, availableParallelism()), 1, 64),
    allowPrivateNetworks: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    proxyCheckUrl: url(env, 'PROXY_CHECK_URL', ['http:', 'https:']) ?? DEFAULT_PROXY_CHECK_URL,
    proxyCheckTimeoutMs: integer(env, 'PROXY_CHECK_TIMEOUT_MS', 10_000, 100, 120_000),
    deviceHost: deviceHost(env),
    simBootMs: integer(env, 'SIM_BOOT_MS', 300, 0, 600_000),
    simExtraApps: simExtraApps(env),
    simSeed: env.SIM_SEED ? integer(env, 'SIM_SEED', 0, 0, 4_294_967_295) : undefined,
    simAppsDir: env.SIM_APPS_DIR ? resolve(env.SIM_APPS_DIR) : undefined,
    simApps: env.SIM_APPS_DIR ? loadSimAppsDir(resolve(env.SIM_APPS_DIR), simExtraApps(env).length > 0 ? [FIELD_GUIDE_PACKAGE] : []) : [],
    adbServers: servers,
    adbDevices: adbDevices(env, servers),
    scheduleMisfireGraceMs: integer(env, 'SCHEDULE_MISFIRE_GRACE_S', 300, 0, 86_400) * 1000,
    schedulerPollMs: integer(env, 'SCHEDULER_POLL_MS', 1000, 10, 60_000),
    schedulerConcurrency: integer(env, 'SCHEDULER_CONCURRENCY', 16, 1, 1000),
    schedulerBatch: integer(env, 'SCHEDULER_BATCH', 100, 1, 500),
    runsEnabled: boolean(env, 'RUNS_ENABLED', true),
    runsPerWorker: integer(env, 'RUNS_PER_WORKER', 8, 1, 1000),
    runsDir: resolve(env.RUNS_DIR || join(tmpdir(), 'svc-runs')),
    runMaxSeconds: integer(env, 'RUN_MAX_SECONDS', 3600, 1, 604_800),
    runMaxMemoryMb: integer(env, 'RUN_MAX_MEMORY_MB', 512, 64, 1_048_576),
    runPath: searchPath(env, 'RUN_PATH', DEFAULT_RUN_PATH),
    runAs: runAsFor(env.RUN_AS_USER, env.RUN_UIDS, identity),
    authoring: authoringSettings(env),
    runSandbox: runSandboxSettings(env),
    runTrace: runTraceSettings(env),
  };
}

/**
 * On the embedded default the secret key is generated into DATA_DIR on first start, so a
 * newcomer needs no setup; it must survive restarts or stored secrets become unreadable.
 */
export function ensureSecretKey(config: LoadedConfig): Buffer {
  if (config.secretKey) return config.secretKey;
  // Several processes share one PostgreSQL database; a key generated by each would make
  // every other process's encrypted secrets unreadable.
  if (config.databaseUrl) throw new ConfigError('SECRET_KEY', 'is required when DATABASE_URL is set (every process must share it)');
  return keyFileIn(config.dataDir);
}

/** The settings with the secret key resolved (`ensureSecretKey`): what `serve` and `svc worker` run with. */
export function withSecretKey(config: LoadedConfig): Config {
  return { ...config, secretKey: ensureSecretKey(config) };
}
