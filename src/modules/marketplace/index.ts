// The marketplace module's front door.
export { buildMarketplaceModule } from './module.js';
