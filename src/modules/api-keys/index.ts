// The api-keys module's front door: key management, the key cache and its invalidation.
export { LocalAuthEpoch, RedisAuthEpoch } from './auth-epoch.js';
export { KEY_PATTERN } from './key-format.js';
export { KeyResolver, type ResolvedKey } from './key-resolver.js';
export { LastUsedRecorder } from './last-used.js';
export { apiKeyRoutes } from './routes.js';
export { ApiKeyService } from './service.js';
