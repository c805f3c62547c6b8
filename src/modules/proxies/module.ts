// Builds the proxies module: proxies, checks, assignments, connection info and usage, with
// the operator's managed-proxy routes.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { systemResolver } from '../../lib/address-policy.js';
import { adminProxyRoutes } from './admin-routes.js';
import { AssignmentService } from './assignments.js';
import { LiveProxyChecker, type ProxyChecker } from './checker.js';
import { ConnectionInfoService } from './connection-info.js';
import { type Geolocator, MmdbGeolocator } from './geo.js';
import { ProxyService } from './proxy-service.js';
import { RunProxyExitCheck } from './run-exit.js';
import { proxyRoutes } from './routes.js';
import { ProxySecrets } from './secrets.js';
import { UsageService } from './usage.js';
import { ProxyValidator } from './validate.js';

export interface ProxiesModuleDeps extends ModuleDeps {
  /** Where exit IPs are; the offline database unless a test injects one. */
  geolocator?: Geolocator;
  checker?: ProxyChecker;
}

export interface ProxiesServices {
  proxies: ProxyService;
  validator: ProxyValidator;
  assignments: AssignmentService;
  connectionInfo: ConnectionInfoService;
  usage: UsageService;
  /** The check a cloud run makes at launch through its device's proxy. */
  runExit: RunProxyExitCheck;
}

export function buildProxiesModule(deps: ProxiesModuleDeps): BuiltModule<ProxiesServices> {
  const { config, db, clock } = deps;
  const secrets = new ProxySecrets(config.secretKey);
  const proxies = new ProxyService(db.kysely, clock, secrets);
  const assignments = new AssignmentService(db.kysely, db.dialect, clock);
  const checker = deps.checker ?? new LiveProxyChecker(config.proxyCheckUrl, config.proxyCheckTimeoutMs);
  const policy = { allowPrivate: config.allowPrivateNetworks, resolver: systemResolver };
  const geolocator = deps.geolocator ?? new MmdbGeolocator();
  const services: ProxiesServices = {
    proxies,
    validator: new ProxyValidator(db.kysely, clock, secrets, checker, geolocator, policy),
    runExit: new RunProxyExitCheck(db.kysely, secrets, checker, geolocator, policy),
    assignments,
    connectionInfo: new ConnectionInfoService(db.kysely, clock, secrets, assignments),
    usage: new UsageService(db.kysely, clock),
  };
  return {
    routes: async (app) => {
      await app.register(proxyRoutes(services));
      await app.register(adminProxyRoutes(proxies));
    },
    services,
  };
}
