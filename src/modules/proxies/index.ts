// The proxies module's front door.
export { adminProxyRoutes } from './admin-routes.js';
export type { Geolocator } from './geo.js';
export { buildProxyModule } from './module.js';
export { proxyRoutes } from './routes.js';
