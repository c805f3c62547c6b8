// The devices module's front door: devices and device groups.
export { type DeviceService, findOwnedDevice } from './devices-service.js';
export type { GroupService } from './groups-service.js';
export { buildDevicesModule, type DevicesServices } from './module.js';
export * from './hosts/index.js';
