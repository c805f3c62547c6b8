// The proxies module's front door.
export type { Geolocator } from './geo.js';
export { buildProxiesModule } from './module.js';
