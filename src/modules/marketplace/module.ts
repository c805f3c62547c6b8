// Builds the marketplace module: listings, frozen versions, installs, reviews, search, and
// the operator's view of them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import type { ServiceContext } from '../../core/context.js';
import type { ImageLibrary } from '../images/index.js';
import { MarketplaceAdminService } from './admin.js';
import { marketplaceAdminRoutes } from './admin-routes.js';
import { InstallService } from './install.js';
import { ListingService } from './listings.js';
import { ReviewService } from './reviews.js';
import { marketplaceRoutes } from './routes.js';
import type { ListingQueryInput } from './schemas.js';
import { searchListings } from './search.js';

export interface MarketplaceServices {
  listings: ListingService;
  installs: InstallService;
  reviews: ReviewService;
  search: (ctx: ServiceContext, input: ListingQueryInput) => ReturnType<typeof searchListings>;
  admin: MarketplaceAdminService;
}

export interface MarketplaceModuleDeps extends ModuleDeps {
  /** Installs put a version's frozen images into the installer's library (the ids it lacks). */
  images: Pick<ImageLibrary, 'adopt' | 'ownedIds'>;
}

export function buildMarketplaceModule(deps: MarketplaceModuleDeps): BuiltModule<MarketplaceServices> {
  const { kysely, dialect } = deps.db;
  const services: MarketplaceServices = {
    listings: new ListingService(kysely, dialect, deps.clock),
    installs: new InstallService(kysely, deps.clock, deps.images),
    reviews: new ReviewService(kysely, dialect, deps.clock),
    search: (ctx, input) => searchListings(kysely, dialect, ctx, input),
    admin: new MarketplaceAdminService(kysely, deps.clock),
  };
  const routes: FastifyPluginAsyncTypebox = async (app) => {
    await app.register(marketplaceRoutes(services));
    await app.register(marketplaceAdminRoutes(services.admin));
  };
  return { routes, services };
}
