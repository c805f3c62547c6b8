// Builds the api-keys module: key management, and the key cache the key gate reads through
// (with its invalidation, which billing uses when a subscription changes).
import type { Redis } from '../../db/redis.js';
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { LocalAuthEpoch, RedisAuthEpoch } from './auth-epoch.js';
import { KeyResolver } from './key-resolver.js';
import { LastUsedRecorder } from './last-used.js';
import { apiKeyRoutes } from './routes.js';
import { ApiKeyService } from './service.js';

export interface ApiKeysModuleDeps extends ModuleDeps {
  redis?: Redis;
  /** Shared state (Redis) unavailable: the app reports it, at most every few seconds. */
  warnSharedState: (error: unknown, what: string) => void;
  log: { error(object: object, message: string): void };
}

export interface ApiKeysServices {
  keys: ApiKeyService;
  /** Key look-ups with their cache; `invalidate()` reaches every process. */
  resolver: KeyResolver;
  /** Batched `last_used_at` writes. */
  lastUsed: LastUsedRecorder;
}

export function buildApiKeysModule(deps: ApiKeysModuleDeps): BuiltModule<ApiKeysServices> {
  const { config, db, clock, redis } = deps;
  const epoch = redis ? new RedisAuthEpoch(redis, config.redisPrefix) : db.externalChangeCounter ? new LocalAuthEpoch(db.externalChangeCounter) : null;
  const resolver = new KeyResolver(db.kysely, epoch, deps.warnSharedState);
  const lastUsed = new LastUsedRecorder(db.kysely, (error) => deps.log.error({ err: error }, 'writing last_used_at failed'));
  const keys = new ApiKeyService(db.kysely, db.dialect, clock, resolver, lastUsed);
  return {
    routes: apiKeyRoutes(keys),
    services: { keys, resolver, lastUsed },
    async close() {
      resolver.stop();
      await lastUsed.flush();
    },
  };
}
