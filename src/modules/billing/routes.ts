import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { callerOf, sessionRoute } from '../../http/route-auth.js';
import { errors } from '../../core/schema.js';
import { Subscription } from './schemas.js';
import { loadSubscription, presentSubscription } from './subscription.js';

export function billingRoutes(db: Kysely<Database>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/billing/subscription',
      {
        config: sessionRoute(),
        schema: { tags: ['billing'], summary: 'The signed-in account\'s subscription', response: { 200: Subscription, ...errors(401) } },
      },
      async (request) => presentSubscription(await loadSubscription(db, callerOf(request).userId)),
    );
  };
}
