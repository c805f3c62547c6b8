// Builds the idempotency module: the store of `Idempotency-Key` claims and kept answers
// (decisions.md §19) that the HTTP edge consults on every key route with POST, and its sweep.
// It has no routes of its own.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { IdempotentRequests } from './store.js';
import { idempotencySweeper, type SweepLog } from './sweeper.js';

export interface IdempotencyServices {
  requests: IdempotentRequests;
}

export function buildIdempotencyModule(deps: ModuleDeps & { log: SweepLog }): BuiltModule<IdempotencyServices> {
  const requests = new IdempotentRequests(deps.db.kysely, deps.clock, deps.config.secretKey);
  return { routes: async () => {}, services: { requests }, workers: [idempotencySweeper(requests, deps.log)] };
}
