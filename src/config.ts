// The one place that reads the environment. Every setting is validated here, and a bad
// value stops start-up with a message that names it; everything else receives `Config`.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  redisPrefix: string;
  /** 32 bytes; undefined only until `ensureSecretKey` has run on the embedded default. */
  secretKey: Buffer | undefined;
  adminToken: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  rateLimitPerKey: number;
  rateLimitPerAccount: number;
  authRateLimitPerIp: number;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: lets webhooks and proxy checks reach private addresses (development, tests). */
  allowPrivateNetworks: boolean;
  /** PROXY_CHECK_URL: the IP-echo endpoint a proxy check fetches through the proxy. */
  proxyCheckUrl: string;
  /** PROXY_CHECK_TIMEOUT_MS: a whole proxy check, connect to last byte. */
  proxyCheckTimeoutMs: number;
}

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`Invalid setting ${setting}: ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

/** ipify answers {"ip": "<caller's address>"}, the shape a proxy check reads. */
export const DEFAULT_PROXY_CHECK_URL = 'https://api.ipify.org/?format=json';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${env[name]}"`);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

/** Accepts 32 bytes written as 64 hex characters or as base64. */
export function parseSecretKey(raw: string, name = 'SECRET_KEY'): Buffer {
  const trimmed = raw.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (bytes.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(trimmed) && bytes.toString('base64').replace(/=+$/, '') !== trimmed.replace(/=+$/, ''))) {
    throw new ConfigError(name, 'must be 32 bytes written as 64 hex characters or as base64');
  }
  return bytes;
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  const baseUrl = (url(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const secretKey = env.SECRET_KEY ? parseSecretKey(env.SECRET_KEY) : undefined;
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const adminToken = env.ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters');
  }
  return {
    port,
    host,
    baseUrl,
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
    allowPrivateNetworks: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    proxyCheckUrl: url(env, 'PROXY_CHECK_URL', ['http:', 'https:']) ?? DEFAULT_PROXY_CHECK_URL,
    proxyCheckTimeoutMs: integer(env, 'PROXY_CHECK_TIMEOUT_MS', 10_000, 100, 120_000),
  };
}

/**
 * On the embedded default the secret key is generated into DATA_DIR on first start, so a
 * newcomer needs no setup; it must survive restarts or stored secrets become unreadable.
 */
export function ensureSecretKey(config: Config): Buffer {
  if (config.secretKey) return config.secretKey;
  // Several processes share one PostgreSQL database; a key generated by each would make
  // every other process's encrypted secrets unreadable.
  if (config.databaseUrl) throw new ConfigError('SECRET_KEY', 'is required when DATABASE_URL is set (every process must share it)');
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'secret.key');
  if (!existsSync(file)) {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  }
  config.secretKey = parseSecretKey(readFileSync(file, 'utf8'), `SECRET_KEY (the file ${file})`);
  return config.secretKey;
}
