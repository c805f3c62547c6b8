// Builds every module the same way, `build<Name>Module(deps)`, in the order their
// dependencies need. `serve` registers their routes (app.ts) and starts their workers;
// `svc worker` starts only the workers.
import type { Deps } from './context.js';
import type { BuiltModule } from './http/module.js';
import { FixedWindowLimiter } from './http/rate-limit.js';
import { PASSWORD_HASH_PARAMS } from './lib/crypto.js';
import { buildAccountsModule } from './modules/accounts/index.js';
import { buildAdminModule } from './modules/admin/index.js';
import { buildApiKeysModule } from './modules/api-keys/index.js';
import { buildBillingModule } from './modules/billing/index.js';
import { buildCodeSyncModule } from './modules/code-sync/index.js';
import { buildDevicesModule } from './modules/devices/index.js';
import { buildExecutionsModule } from './modules/executions/index.js';
import { buildMacrosModule } from './modules/macros/index.js';
import { buildProfilesModule } from './modules/profiles/index.js';
import { buildProxiesModule } from './modules/proxies/index.js';
import { buildRunLogsModule } from './modules/run-logs/index.js';
import { buildRunsModule } from './modules/runs/index.js';
import { buildWebhooksModule } from './modules/webhooks/index.js';

export interface ModuleLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface ModulesDeps extends Deps {
  log: ModuleLog;
  /** Shared state (Redis) unavailable: reported by the caller, which rate-limits the warning. */
  warnSharedState: (error: unknown, what: string) => void;
}

export function limiterFactory(deps: Pick<Deps, 'config' | 'clock' | 'redis'>) {
  return (name: string, limit: number) => new FixedWindowLimiter(name, limit, deps.clock, deps.redis, deps.config.redisPrefix);
}

export function buildModules(deps: ModulesDeps) {
  const base = { config: deps.config, db: deps.db, clock: deps.clock };
  const apiKeys = buildApiKeysModule({ ...base, redis: deps.redis, log: deps.log, warnSharedState: deps.warnSharedState });
  // Key look-ups cache the subscription, so billing tells the key cache about every change.
  const billing = buildBillingModule({ ...base, keyCache: apiKeys.services.resolver });
  return {
    accounts: buildAccountsModule({ ...base, passwordParams: deps.passwordParams ?? PASSWORD_HASH_PARAMS, limiter: limiterFactory(deps) }),
    billing,
    apiKeys,
    admin: buildAdminModule({ ...base, subscriptions: billing.services.subscriptions }),
    macros: buildMacrosModule(base),
    codeSync: buildCodeSyncModule(base),
    devices: buildDevicesModule(base),
    executions: buildExecutionsModule(base),
    runLogs: buildRunLogsModule(base),
    profiles: buildProfilesModule(base),
    webhooks: buildWebhooksModule({ ...base, log: deps.log, resolver: deps.resolver }),
    proxies: buildProxiesModule({ ...base, geolocator: deps.geolocator }),
    runs: buildRunsModule(base),
  };
}

export type Modules = ReturnType<typeof buildModules>;

export const allModules = (modules: Modules): BuiltModule<object>[] => Object.values(modules);
