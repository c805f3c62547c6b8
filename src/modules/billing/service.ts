// The subscription as a service: the signed-in account reads its own, the operator sets
// anyone's. A change reaches the key gate of every process before its next request, because
// key look-ups cache the subscription; that rule lives here, not in a route.
import type { Kysely } from 'kysely';
import type { CallOrigin, ServiceContext } from '../../core/context.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { loadSubscription, presentSubscription, setSubscription, type SubscriptionRow } from './subscription.js';

/** Whatever caches what a subscription decides (the key cache); told after every change. */
export interface SubscriptionCache {
  invalidate(): Promise<void>;
}

export interface SubscriptionChange extends Partial<SubscriptionRow> {
  userId: number;
}

export class SubscriptionService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly cache: SubscriptionCache,
  ) {}

  async current(ctx: ServiceContext) {
    return presentSubscription(await loadSubscription(this.db, ctx.userId));
  }

  /** The operator's change; fields left undefined keep their value. */
  async set(_origin: CallOrigin, { userId, ...patch }: SubscriptionChange) {
    await setSubscription(this.db, this.clock, userId, patch);
    await this.cache.invalidate();
    return presentSubscription(await loadSubscription(this.db, userId));
  }
}
