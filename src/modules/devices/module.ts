// Builds the devices module: devices and device groups, cloud devices' lifecycle (start,
// stop, delete, run by the lifecycle job), their leases, and seeing and touching them.
import type { JobLog } from '../../db/jobs/worker.js';
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { DeviceActions } from './actions/service.js';
import { DeviceService } from './devices-service.js';
import { GroupService } from './groups-service.js';
import { hostedDeviceRoutes } from './hosted-routes.js';
import { createDeviceHost, type DeviceHost } from './hosts/index.js';
import { LeaseService } from './leases/service.js';
import type { ActiveRunCheck } from './idle.js';
import { DeviceLifecycle } from './lifecycle/service.js';
import { leaseSweeper, lifecycleWorker } from './lifecycle/worker.js';
import { deviceRoutes } from './routes.js';

export interface DevicesModuleDeps extends ModuleDeps {
  log: JobLog;
  /** The device host; built from the configuration (DEVICE_HOST) when not given, and then closed with the module. */
  host?: DeviceHost;
  /** Whether a device has an active cloud run: the runs module's `deviceHasActiveRun` (cloud_runs is its table), handed in since runs depends on devices. */
  hasActiveRun: ActiveRunCheck;
}

export interface DevicesServices {
  devices: DeviceService;
  groups: GroupService;
  lifecycle: DeviceLifecycle;
  leases: LeaseService;
  actions: DeviceActions;
  host: DeviceHost;
}

export function buildDevicesModule(deps: DevicesModuleDeps): BuiltModule<DevicesServices> {
  const { config, db, clock, log } = deps;
  const ownHost = deps.host === undefined;
  const host = deps.host ?? createDeviceHost(config, { db, clock });
  const devices = new DeviceService(db.kysely, db.dialect, clock);
  const groups = new GroupService(db.kysely, db.dialect, clock);
  const lifecycle = new DeviceLifecycle(db, clock, deps.hasActiveRun);
  const leases = new LeaseService(db, clock, host, lifecycle, deps.hasActiveRun);
  const actions = new DeviceActions(db.kysely, host, deps.hasActiveRun, { clock });
  return {
    routes: async (app) => {
      await app.register(deviceRoutes(devices, groups));
      await app.register(hostedDeviceRoutes(lifecycle, actions));
    },
    services: { devices, groups, lifecycle, leases, actions, host },
    // A stop and a delete first end what runs on the device: what was registered with lifecycle.onBeforeStop.
    workers: [lifecycleWorker({ db, clock, log, host, stopActiveRun: (id, reason) => lifecycle.stopActiveWork(id, reason) }), leaseSweeper(leases, log)],
    close: async () => {
      if (ownHost) await host.close();
    },
  };
}
