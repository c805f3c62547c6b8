// Builds the proxy services once per app, from the same dependencies as everything else.
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { systemResolver } from '../../lib/address-policy.js';
import type { Clock } from '../../lib/clock.js';
import { AssignmentService } from './assignments.js';
import { LiveProxyChecker, type ProxyChecker } from './checker.js';
import { ConnectionInfoService } from './connection-info.js';
import { type Geolocator, MmdbGeolocator } from './geo.js';
import { ProxyService } from './proxy-service.js';
import { ProxySecrets } from './secrets.js';
import { UsageService } from './usage.js';
import { ProxyValidator } from './validate.js';

export interface ProxyModule {
  proxies: ProxyService;
  validator: ProxyValidator;
  assignments: AssignmentService;
  connectionInfo: ConnectionInfoService;
  usage: UsageService;
}

export function buildProxyModule(deps: { config: Config; db: Db; clock: Clock; geolocator?: Geolocator; checker?: ProxyChecker }): ProxyModule {
  const { config, db, clock } = deps;
  const secrets = new ProxySecrets(config);
  const proxies = new ProxyService(db.kysely, clock, secrets);
  const assignments = new AssignmentService(db.kysely, db.dialect, clock);
  const checker = deps.checker ?? new LiveProxyChecker(config.proxyCheckUrl, config.proxyCheckTimeoutMs);
  const policy = { allowPrivate: config.allowPrivateNetworks, resolver: systemResolver };
  return {
    proxies,
    validator: new ProxyValidator(db.kysely, clock, secrets, checker, deps.geolocator ?? new MmdbGeolocator(), policy),
    assignments,
    connectionInfo: new ConnectionInfoService(db.kysely, clock, secrets, assignments),
    usage: new UsageService(db.kysely, clock),
  };
}
