// The devices module's front door: devices and device groups, cloud devices' lifecycle,
// leases and actions, and the device hosts.
export { type DeviceService, findOwnedDevice, findOwnedDevices } from './devices-service.js';
export type { GroupService } from './groups-service.js';
export { Device, UiElementWithCenter } from './schemas.js';
export { buildDevicesModule, type DevicesServices } from './module.js';
export { type DeviceLifecycle } from './lifecycle/service.js';
export { deviceLifecycleJob } from './lifecycle/job.js';
export { createLifecycleWorker } from './lifecycle/worker.js';
export { LEASE_MINUTES, type LeaseService } from './leases/service.js';
export { APK_MAX_BYTES, type DeviceActions } from './actions/service.js';
export { centerOf, findById, findByText, findText, tapElement, tapText, withCenter } from './actions/find-element.js';
export { findCloudDevice } from './cloud-device.js';
export { holdDeviceForJob, releaseJobHold, renewJobHold } from './leases/job-holds.js';
export { type ActiveRunCheck, assertNoLiveLease, deviceBusyWithRun, liveLeaseRefusals } from './idle.js';
export { countDeviceRun, countDeviceRuns, groupOfDevice, repointDevicesProfile } from './device-records.js';
export { countDevices, type DeviceLabel, deviceLabels, isDeviceLive, ownedDeviceIds, ownedGroupIds } from './lookups.js';
export * from './hosts/index.js';
export * from './catalogue/index.js';
export { requireElement, requireText } from './actions/find-element.js';
