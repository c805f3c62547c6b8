// The operator's marketplace routes: list listings with their installs, hide or show one.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adminRoute } from '../../http/route-auth.js';
import { errors, IdParams } from '../../core/schema.js';
import type { MarketplaceAdminService } from './admin.js';
import { AdminListing, AdminListingPage, AdminListingQuery, HideBody } from './schemas.js';

export function marketplaceAdminRoutes(admin: MarketplaceAdminService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/admin/marketplace/listings',
      {
        config: adminRoute(),
        schema: {
          operationId: 'adminListListings',
          description: 'Every marketplace listing, most installed first, with its install count, its author (with email) and whether it is hidden.',
          tags: ['admin'],
          summary: 'List marketplace listings',
          querystring: AdminListingQuery,
          response: { 200: AdminListingPage, ...errors(422) },
        },
      },
      async (request) => admin.list(request.query),
    );
    app.put(
      '/admin/marketplace/listings/:id/hidden',
      {
        config: adminRoute(),
        schema: {
          operationId: 'adminHideListing',
          description: 'Hides a listing (`hidden: true`, with an optional reason kept for the operator) or shows it again. A hidden listing is seen only by its author and cannot be installed; copies already installed keep working.',
          tags: ['admin'],
          summary: 'Hide or show a listing',
          params: IdParams,
          body: HideBody,
          response: { 200: AdminListing, ...errors(400, 404, 422) },
        },
      },
      async (request) => admin.hide(request.params.id, request.body),
    );
  };
}
