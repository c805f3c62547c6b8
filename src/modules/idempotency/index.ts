// The idempotency module's front door.
export { buildIdempotencyModule, type IdempotencyServices } from './module.js';
export type { IdempotentRequests } from './store.js';
export { IDEMPOTENCY_SWEEP_MS } from './sweeper.js';
