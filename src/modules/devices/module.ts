// Builds the devices module: devices and device groups.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { DeviceService } from './devices-service.js';
import { GroupService } from './groups-service.js';
import { deviceRoutes } from './routes.js';

export interface DevicesServices {
  devices: DeviceService;
  groups: GroupService;
}

export function buildDevicesModule(deps: ModuleDeps): BuiltModule<DevicesServices> {
  const { db, clock } = deps;
  const devices = new DeviceService(db.kysely, db.dialect, clock);
  const groups = new GroupService(db.kysely, db.dialect, clock);
  return { routes: deviceRoutes(devices, groups), services: { devices, groups } };
}
