// AI credits (decisions.md §13): the account's month at GET /api/billing/credits, and the
// operator's allowance at PUT /admin/users/{id}/credits. Both answer whether or not a model
// endpoint is configured: credits are an account's standing, not the agent's.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, IdParams } from '../../core/schema.js';
import { contextOf } from '../../http/request-context.js';
import { adminRoute, sessionRoute } from '../../http/route-auth.js';
import type { CreditLedger } from './credits.js';
import { Credits, CreditsPatch } from './schemas.js';

export function creditRoutes(ledger: CreditLedger): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/billing/credits',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getCredits',
          summary: "This month's AI credits",
          description: 'The calendar month (UTC) the numbers cover, the allowance and what the authoring agent has used of it. One credit is 1,000 tokens (prompt plus completion) as the model endpoint reports them.',
          tags: ['billing'],
          response: { 200: Credits },
        },
      },
      async (request) => ledger.credits(contextOf(request).userId),
    );
    app.put(
      '/admin/users/:id/credits',
      {
        config: adminRoute(),
        schema: {
          operationId: 'setUserCredits',
          summary: "Set an account's monthly AI credits",
          description: 'Whole credits per calendar month (0 to 1,000,000); `null` returns the account to AUTHOR_CREDITS_PER_MONTH. Answers the account\'s credits as GET /api/billing/credits does.',
          tags: ['admin'],
          params: IdParams,
          body: CreditsPatch,
          response: { 200: Credits, ...errors(400, 404, 422) },
        },
      },
      async (request) => ledger.setAllowance(request.params.id, request.body.limit),
    );
  };
}
