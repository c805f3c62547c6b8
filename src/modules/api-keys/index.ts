// The api-keys module's front door: key management, the key cache and its invalidation.
export { KEY_PATTERN } from './key-format.js';
export type { KeyResolver, ResolvedKey } from './key-resolver.js';
export type { LastUsedRecorder } from './last-used.js';
export { type ApiKeysModuleDeps, type ApiKeysServices, buildApiKeysModule } from './module.js';
export type { ApiKeyService } from './service.js';
export { ApiKeyGate, isUsableKey } from './gate.js';
export { keyCovers, SCOPES } from './scopes.js';
