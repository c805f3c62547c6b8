// Builds the api-keys module: key management, and the key cache the key gate reads through
// (with its invalidation, which billing uses when a subscription changes).
import type { Redis } from '../../db/redis.js';
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import type { FixedWindowLimiter } from '../../lib/rate-limit.js';
import { LocalAuthEpoch, RedisAuthEpoch } from './auth-epoch.js';
import { ApiKeyGate } from './gate.js';
import { KeyResolver } from './key-resolver.js';
import { LastUsedRecorder } from './last-used.js';
import { apiKeyRoutes } from './routes.js';
import { ApiKeyService } from './service.js';

export interface ApiKeysModuleDeps extends ModuleDeps {
  redis?: Redis;
  /** Shared state (Redis) unavailable: the app reports it, at most every few seconds. */
  warnSharedState: (error: unknown, what: string) => void;
  log: { error(object: object, message: string): void };
  /** A fixed-window limiter by name and limit (per key, per account). */
  limiter: (name: string, limit: number) => FixedWindowLimiter;
}

export interface ApiKeysServices {
  keys: ApiKeyService;
  /** Key look-ups with their cache; `invalidate()` reaches every process. */
  resolver: KeyResolver;
  /** Batched `last_used_at` writes. */
  lastUsed: LastUsedRecorder;
  /** 401, 429, 402, 403 for key requests: the REST key guard and the tool server share it. */
  gate: ApiKeyGate;
}

export function buildApiKeysModule(deps: ApiKeysModuleDeps): BuiltModule<ApiKeysServices> {
  const { config, db, clock, redis } = deps;
  const epoch = redis ? new RedisAuthEpoch(redis, config.redisPrefix) : db.externalChangeCounter ? new LocalAuthEpoch(db.externalChangeCounter) : null;
  const resolver = new KeyResolver(db.kysely, epoch, deps.warnSharedState);
  const lastUsed = new LastUsedRecorder(db.kysely, (error) => deps.log.error({ err: error }, 'writing last_used_at failed'));
  const keys = new ApiKeyService(db.kysely, db.dialect, clock, resolver, lastUsed);
  const gate = new ApiKeyGate(resolver, deps.limiter('key', config.rateLimitPerKey), deps.limiter('account', config.rateLimitPerAccount), lastUsed, clock);
  return {
    routes: apiKeyRoutes(keys),
    services: { keys, resolver, lastUsed, gate },
    async close() {
      resolver.stop();
      await lastUsed.flush();
    },
  };
}
