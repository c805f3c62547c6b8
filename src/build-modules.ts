// Builds every module the same way, `build<Name>Module(deps)`, in the order their
// dependencies need. `serve` registers their routes (app.ts) and starts their workers;
// `svc worker` starts only the workers.
import type { Deps } from './context.js';
import type { BuiltModule } from './http/module.js';
import { FixedWindowLimiter } from './lib/rate-limit.js';
import { PASSWORD_HASH_PARAMS } from './lib/crypto.js';
import { buildAccountsModule } from './modules/accounts/index.js';
import { buildAdminModule } from './modules/admin/index.js';
import { buildApiKeysModule } from './modules/api-keys/index.js';
import { buildAuthoringModule } from './modules/authoring/index.js';
import { buildBillingModule } from './modules/billing/index.js';
import { buildCodeSyncModule, removeMacroCode } from './modules/code-sync/index.js';
import { buildEventsModule } from './modules/events/index.js';
import { buildDevicesModule, repointDevicesProfile } from './modules/devices/index.js';
import { buildExecutionsModule } from './modules/executions/index.js';
import { buildIdempotencyModule } from './modules/idempotency/index.js';
import { buildImagesModule } from './modules/images/index.js';
import { buildMacrosModule } from './modules/macros/index.js';
import { buildMapsModule } from './modules/maps/index.js';
import { buildMarketplaceModule } from './modules/marketplace/index.js';
import { buildMcpModule } from './modules/mcp/index.js';
import { buildProfilesModule } from './modules/profiles/index.js';
import { buildProxiesModule } from './modules/proxies/index.js';
import { buildRecorderModule } from './modules/recorder/index.js';
import { buildRunLogsModule } from './modules/run-logs/index.js';
import { buildSchedulerModule } from './modules/scheduler/index.js';
import { blockProgramRules, buildRunsModule, deviceHasActiveRun, runValidation } from './modules/runs/index.js';
import { buildWebhooksModule, webhookDeliveries } from './modules/webhooks/index.js';

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

/**
 * What a cloud run needs, and nothing more: the runs thread (runs-thread/entry.ts) builds only
 * this, every other process builds it as part of buildModules.
 */
export function buildRunModules(deps: ModulesDeps) {
  const base = { config: deps.config, db: deps.db, clock: deps.clock };
  // Every recorded event (a run's start and end, a macro's custom event, a reported run, a
  // webhook test) queues its webhook deliveries in the event's own transaction, and wakes the
  // delivery workers when it commits. The modules that record events get `emit`.
  const events = buildEventsModule({ subscribers: [webhookDeliveries(deps.db.wakeup)] });
  const emit = events.services.emit;
  const proxies = buildProxiesModule({ ...base, geolocator: deps.geolocator });
  const devices = buildDevicesModule({ ...base, log: deps.log, hasActiveRun: deviceHasActiveRun });
  // The console's crop route reads a cloud device's screen through the devices module's actions.
  const images = buildImagesModule({ ...base, matcher: deps.matcher, cloudScreen: devices.services.actions });
  // Runs share the devices' host: a run on a stopped device starts it through the lifecycle,
  // a start asks the host for a slot, and a run checks its device's proxy at launch.
  const runs = buildRunsModule({
    ...base,
    log: deps.log,
    host: devices.services.host,
    readiness: devices.services.lifecycle,
    capacity: devices.services.host,
    proxyExit: proxies.services.runExit,
    images: images.services.screen,
    emit,
  });
  // Devices and runs need each other the other way too: a device's stop or delete first stops
  // its active run. Runs is built after devices, so it registers with the lifecycle here.
  devices.services.lifecycle.onBeforeStop(runs.services.runs.stopActiveRunOnDevice);
  return { events, proxies, images, devices, runs };
}

export function buildModules(deps: ModulesDeps) {
  const base = { config: deps.config, db: deps.db, clock: deps.clock };
  const { events, proxies, images, devices, runs } = buildRunModules(deps);
  const emit = events.services.emit;
  const apiKeys = buildApiKeysModule({ ...base, redis: deps.redis, log: deps.log, warnSharedState: deps.warnSharedState, limiter: limiterFactory(deps) });
  // Key look-ups cache the subscription, so billing tells the key cache about every change.
  const billing = buildBillingModule({ ...base, keyCache: apiKeys.services.resolver });
  const macros = buildMacrosModule({ ...base, blockPrograms: blockProgramRules, removeCode: removeMacroCode });
  const codeSync = buildCodeSyncModule({ ...base, images: images.services.library });
  const runLogs = buildRunLogsModule(base);
  const executions = buildExecutionsModule({ ...base, emit });
  // Explorations hold their device like a lease and ready it through the lifecycle, as runs do.
  const maps = buildMapsModule({
    ...base,
    log: deps.log,
    host: devices.services.host,
    readiness: devices.services.lifecycle,
    thumbnails: images.services.library,
  });
  // The authoring agent drives its device through a lease and runs its code as cloud runs.
  const authoring = buildAuthoringModule({
    ...base,
    log: deps.log,
    macros: macros.services.macros,
    codeSync: codeSync.services.codeSync,
    cloudDevices: devices.services.lifecycle,
    leases: devices.services.leases,
    vision: images.services.screen,
    runs: runs.services.runs,
    history: executions.services.history,
    runLogs: runLogs.services.logs,
    traces: runs.services.traces,
    maps: maps.services.maps,
  });
  // The recorder drives the device as the catalogue does, and saves and replays through macros, code sync and runs.
  const recorder = buildRecorderModule({
    ...base,
    host: devices.services.host,
    leases: devices.services.leases,
    screen: images.services.screen,
    macros: macros.services.macros,
    codeSync: codeSync.services.codeSync,
    runs: runs.services.runs,
  });
  const scheduler = buildSchedulerModule({
    ...base,
    log: deps.log,
    macros: macros.services.macros,
    cloudDevices: devices.services.lifecycle,
    groups: devices.services.groups,
    runs: runs.services.runs,
  });
  const mcp = buildMcpModule({
    ...base,
    gate: apiKeys.services.gate,
    resolver: apiKeys.services.resolver,
    macros: macros.services.macros,
    codeSync: codeSync.services.codeSync,
    runLogs: runLogs.services.logs,
    devices: devices.services.devices,
    maps: maps.services.maps,
    images: images.services.library,
    screen: images.services.screen,
    leases: devices.services.leases,
    runs: runs.services.runs,
    traces: runs.services.traces,
    runChecks: runValidation({ db: deps.db.kysely, images: images.services.library, codeSync: codeSync.services.codeSync }),
    schedules: scheduler.services.schedules,
    authoring: authoring.services.sessions,
    log: deps.log,
  });
  return {
    accounts: buildAccountsModule({ ...base, passwordParams: deps.passwordParams ?? PASSWORD_HASH_PARAMS, limiter: limiterFactory(deps) }),
    billing,
    apiKeys,
    admin: buildAdminModule({ ...base, subscriptions: billing.services.subscriptions }),
    macros,
    codeSync,
    images,
    devices,
    executions,
    runLogs,
    profiles: buildProfilesModule({ ...base, repointDevices: repointDevicesProfile }),
    webhooks: buildWebhooksModule({ ...base, log: deps.log, resolver: deps.resolver, emit }),
    proxies,
    runs,
    maps,
    scheduler,
    mcp,
    authoring,
    marketplace: buildMarketplaceModule({ ...base, images: images.services.library }),
    events,
    idempotency: buildIdempotencyModule({ ...base, log: deps.log }),
    recorder,
  };
}

export type Modules = ReturnType<typeof buildModules>;

export const allModules = (modules: Modules): BuiltModule<object>[] => Object.values(modules);
