// The devices module's front door: devices and device groups, cloud devices' lifecycle,
// leases and actions, and the device hosts.
export { type DeviceService, findOwnedDevice } from './devices-service.js';
export { Device, UiElementWithCenter } from './schemas.js';
export type { GroupService } from './groups-service.js';
export { buildDevicesModule, type DevicesModuleDeps, type DevicesServices } from './module.js';
export { type DeviceLifecycle, type LifecycleAnswer, type WaitOptions } from './lifecycle/service.js';
export { DEVICE_LIFECYCLE, deviceLifecycleJob, type DeviceLifecycleJob } from './lifecycle/job.js';
export type { StopActiveRun } from './lifecycle/handler.js';
export { createLifecycleWorker, type LifecycleWorkerDeps } from './lifecycle/worker.js';
export { LEASE_MINUTES, type LeaseCaller, type LeaseGrant, type LeaseHolder, type LeaseService, type ResolvedLease } from './leases/service.js';
export { APK_MAX_BYTES, type DeviceActions } from './actions/service.js';
export { centerOf, type ElementWithCenter, findById, findByText, findText, tapElement, tapText, withCenter } from './actions/find-element.js';
export { findCloudDevice, lockCloudDevice } from './cloud-device.js';
export { assertDeviceIdle, deviceBusyWithRun } from './idle.js';
export { countDeviceRun, repointDevicesProfile } from './device-records.js';
export * from './hosts/index.js';
