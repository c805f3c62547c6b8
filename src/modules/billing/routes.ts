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
        schema: {
          operationId: 'getSubscription',
          description: "The signed-in account's subscription: `trialing`, `active` or `inactive`, the plan, and when the trial or the paid period ends. API keys work only while it is active.",
          tags: ['billing'],
          summary: 'The signed-in account\'s subscription',
          response: { 200: Subscription, ...errors(401) },
        },
      },
      async (request) => subscriptions.current(contextOf(request)),
    );
  };
}
