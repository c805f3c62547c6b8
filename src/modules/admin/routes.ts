// The operator's admin API (enabled by ADMIN_TOKEN): find users, set a subscription.
// Payment collection is out of scope; this is how a plan is granted or ended.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/schema.js';
import { adminRoute } from '../../http/route-auth.js';
import { DateTime, errors, IdParams, Nullable, StringEnum } from '../../core/schema.js';
import type { Clock } from '../../lib/clock.js';
import { normaliseEmail, presentUser } from '../accounts/index.js';
import type { KeyResolver } from '../api-keys/index.js';
import { SUBSCRIPTION_STATUSES, Subscription } from '../billing/index.js';
import { loadSubscription, presentSubscription, setSubscription } from '../billing/index.js';
import { User } from '../accounts/index.js';

const SubscriptionPatch = Type.Object(
  {
    status: Type.Optional(StringEnum(SUBSCRIPTION_STATUSES)),
    plan: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    trial_ends_at: Type.Optional(Nullable(DateTime())),
    current_period_end: Type.Optional(Nullable(DateTime())),
  },
  { additionalProperties: false, minProperties: 1 },
);

const millis = (value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : Date.parse(value));

export function adminRoutes(db: Kysely<Database>, clock: Clock, resolver: KeyResolver): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/admin/users',
      {
        config: adminRoute(),
        schema: {
          tags: ['admin'],
          summary: 'Find users (exact email match)',
          querystring: Type.Object({ email: Type.Optional(Type.String({ maxLength: 254 })) }, { additionalProperties: false }),
          response: { 200: Type.Object({ items: Type.Array(User) }), ...errors(422) },
        },
      },
      async (request) => {
        let query = db.selectFrom('users').select(['id', 'email', 'name', 'created_at']).orderBy('id').limit(200);
        if (request.query.email !== undefined) query = query.where('email', '=', normaliseEmail(request.query.email));
        return { items: (await query.execute()).map(presentUser) };
      },
    );

    app.put(
      '/admin/users/:id/subscription',
      {
        config: adminRoute(),
        schema: {
          tags: ['admin'],
          summary: "Set a user's subscription state",
          params: IdParams,
          body: SubscriptionPatch,
          response: { 200: Subscription, ...errors(400, 422) },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { status, plan, trial_ends_at, current_period_end } = request.body;
        await setSubscription(db, clock, id, { status, plan, trial_ends_at: millis(trial_ends_at), current_period_end: millis(current_period_end) });
        // Key look-ups cache the subscription; every process must see the change at once.
        await resolver.invalidate();
        return presentSubscription(await loadSubscription(db, id));
      },
    );
  };
}
