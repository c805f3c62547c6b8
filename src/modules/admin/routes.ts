// The operator's admin API (enabled by ADMIN_TOKEN): find users, set a subscription.
// Payment collection is out of scope; this is how a plan is granted or ended.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors, IdParams } from '../../core/schema.js';
import { originOf } from '../../http/request-context.js';
import { adminRoute } from '../../http/route-auth.js';
import { User } from '../accounts/index.js';
import { Subscription } from '../billing/index.js';
import { SubscriptionPatch } from './schemas.js';
import type { AdminService } from './service.js';

export function adminRoutes(admin: AdminService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/admin/users',
      {
        config: adminRoute(),
        schema: {
          operationId: 'findUsers',
          description: 'Lists users by id (at most 200), or finds the user with exactly the given email, so the operator can look up an account before changing its subscription.',
          tags: ['admin'],
          summary: 'Find users (exact email match)',
          querystring: Type.Object({ email: Type.Optional(Type.String({ maxLength: 254 })) }, { additionalProperties: false }),
          response: { 200: Type.Object({ items: Type.Array(User) }), ...errors(422) },
        },
      },
      async (request) => admin.findUsers(originOf(request), request.query),
    );

    app.put(
      '/admin/users/:id/subscription',
      {
        config: adminRoute(),
        schema: {
          operationId: 'setUserSubscription',
          description: "Sets any of a user's subscription status, plan, trial end and period end, and answers the result. Key look-ups in every process see the change at once.",
          tags: ['admin'],
          summary: "Set a user's subscription state",
          params: IdParams,
          body: SubscriptionPatch,
          response: { 200: Subscription, ...errors(400, 422) },
        },
      },
      async (request) => admin.setSubscription(originOf(request), { ...request.params, ...request.body }),
    );
  };
}
