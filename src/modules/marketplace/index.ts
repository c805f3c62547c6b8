// The marketplace module's front door.
export { buildMarketplaceModule, type MarketplaceServices } from './module.js';
export { SECRET_KINDS } from './secret-scan.js';
