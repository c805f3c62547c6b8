// The api-keys module's front door: key management, the key cache and its invalidation.
export { KEY_PATTERN } from './key-format.js';
export type { KeyResolver } from './key-resolver.js';
export { buildApiKeysModule } from './module.js';
export { ApiKeyGate, isUsableKey } from './gate.js';
export { keyCovers, SCOPES } from './scopes.js';
export { keyHashOf } from './lookups.js';
