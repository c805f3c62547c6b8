// The one place that reads the environment: the service's own settings here, each module's in
// its one file in config/ (devices, runs, webhooks, proxies, scheduler, authoring, mcp),
// composed below. Every setting is validated, and a bad value stops start-up with a message
// that names it. Start-up then resolves the secret key (`withSecretKey`), and everything else
// receives that `Config`, whose key is never missing. Nothing here imports a module.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { authoringSettings, type AuthoringSettings } from './config/authoring.js';
import { type AdbDeviceSelector, type AdbServerAddress, devicesSettings, type DevicesSettings, formatAdbServer } from './config/devices.js';
import { mcpAllowedOrigins } from './config/mcp.js';
import { DEFAULT_PROXY_CHECK_URL, proxiesSettings, type ProxiesSettings } from './config/proxies.js';
import { DEFAULT_RUN_PATH, type RunSandboxSettings, runsSettings, type RunsSettings, type RunTraceSettings } from './config/runs.js';
import { schedulerSettings, type SchedulerSettings } from './config/scheduler.js';
import { webhooksSettings, type WebhooksSettings } from './config/webhooks.js';
import { KEY_PATTERN } from './core/values.js';
import { ConfigError } from './lib/config-error.js';
import { boolean, type Env, integer, url } from './lib/env-settings.js';
import { currentIdentity, type ServiceIdentity } from './lib/run-user.js';
import { keyFileIn, parseSecretKey } from './lib/secret-key.js';

/**
 * The settings as read from the environment, before start-up has resolved the secret key: the
 * service's own (below), and each module's from its one place in config/.
 */
export interface LoadedConfig extends DevicesSettings, RunsSettings, WebhooksSettings, ProxiesSettings, SchedulerSettings {
  port: number;
  host: string;
  baseUrl: string;
  /** MCP_ALLOWED_ORIGINS: browser origins /mcp accepts besides BASE_URL's (config/mcp.ts). */
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
  /** RUN_WORKERS: whether `serve` also runs the background workers (webhook deliveries, device lifecycle). */
  runWorkers: boolean;
  visionThreads: number;
  /** AUTHOR_*: the authoring agent's model endpoint, limits and credits (config/authoring.ts). */
  authoring: AuthoringSettings;
}

/** The settings every part of the service receives: the secret key is resolved, so no service checks for it. */
export type Config = Omit<LoadedConfig, 'secretKey'> & {
  /** 32 bytes: SECRET_KEY, or on the embedded default the key kept in DATA_DIR. */
  secretKey: Buffer;
};

export { ConfigError, DEFAULT_PROXY_CHECK_URL, DEFAULT_RUN_PATH, formatAdbServer, parseSecretKey };
export type { AdbDeviceSelector, AdbServerAddress, RunSandboxSettings, RunTraceSettings };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

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
    runWorkers: boolean(env, 'RUN_WORKERS', true),
    visionThreads: integer(env, 'VISION_THREADS', Math.min(4, availableParallelism()), 1, 64),
    ...webhooksSettings(env),
    ...proxiesSettings(env),
    ...devicesSettings(env),
    ...schedulerSettings(env),
    ...runsSettings(env, identity),
    authoring: authoringSettings(env),
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
