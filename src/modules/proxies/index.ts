// The proxies module's front door.
export type { ProxyChecker } from './checker.js';
export type { Geolocator } from './geo.js';
export { buildProxiesModule, type ProxiesModuleDeps, type ProxiesServices } from './module.js';
export type { RunProxyExit, RunProxyExitCheck, RunProxyRelay } from './run-exit.js';
