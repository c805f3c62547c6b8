// The devices module's front door: devices and device groups.
export { DeviceService, findOwnedDevice } from './devices-service.js';
export { GroupService } from './groups-service.js';
export { deviceRoutes } from './routes.js';
