import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../../core/schema.js';
import { contextOf } from '../../http/request-context.js';
import { sessionRoute } from '../../http/route-auth.js';
import { Subscription } from './schemas.js';
import type { SubscriptionService } from './service.js';

export function billingRoutes(subscriptions: SubscriptionService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/billing/subscription',
      {
        config: sessionRoute(),
        schema: { tags: ['billing'], summary: 'The signed-in account\'s subscription', response: { 200: Subscription, ...errors(401) } },
      },
      async (request) => subscriptions.current(contextOf(request)),
    );
  };
}
