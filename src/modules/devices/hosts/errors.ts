// Typed device-host errors, each with the status and `details.code` of decisions.md §1 where
// the contract names one, so a route can let them through to the error envelope and a job
// worker can turn them into `hosted_state: error` with the message as `hosted_state_message`.
import { AppError } from '../../../core/errors.js';

/** 404 `not_found`: the device holds no slot on this host (never placed, or shut down). */
export class DeviceNotFoundError extends AppError {
  constructor(deviceId: number, why = 'is not placed on this device host') {
    super(404, 'not_found', `Device ${deviceId} ${why}.`);
  }
}

/** 409 `device_not_ready`: placed but not booted (or shutting down). */
export class DeviceNotReadyError extends AppError {
  constructor(deviceId: number) {
    super(409, 'device_not_ready', `Device ${deviceId} is not ready: start it and wait until it is ready.`);
  }
}

/**
 * The device was told to stop, or deleted, while a caller waited for it to be ready: not a
 * fault, the owner's choice. Same status and code as before the wait (409 `device_not_ready`,
 * or 404 once deleted); a waiting cloud run ends `stopped` on it, not `failed`.
 */
export class DeviceStoppedWhileWaitingError extends AppError {
  constructor(
    deviceId: number,
    readonly how: 'stopped' | 'deleted',
  ) {
    super(how === 'deleted' ? 404 : 409, how === 'deleted' ? 'not_found' : 'device_not_ready', `Device ${deviceId} was ${how} before it was ready.`);
  }
}

/** 503 `no_device_capacity`: every slot is taken (§9: "no device capacity"). */
export class NoDeviceCapacityError extends AppError {
  constructor(detail?: string) {
    super(503, 'no_device_capacity', detail ? `no device capacity: ${detail}` : 'no device capacity');
  }
}

/** 502 `device_host_fault`: the host failed (ADB server unreachable, device gone, boot failed). */
export class DeviceHostFaultError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(502, 'device_host_fault', message);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** 422 `invalid_apk`: the file is not an APK (no readable manifest). */
export class InvalidApkError extends AppError {
  constructor(reason: string) {
    super(422, 'invalid_apk', `The file is not an Android app (APK): ${reason}.`);
  }
}

/** 422 `apk_install_failed`: a valid APK the device refused (downgrade, wrong ABI, no space). */
export class ApkInstallFailedError extends AppError {
  constructor(pkg: string, reason: string) {
    super(422, 'apk_install_failed', `The device refused to install ${pkg}: ${reason}.`, { reason });
  }
}

/** 404 `app_not_installed`: open or close of a package the device does not have. */
export class AppNotInstalledError extends AppError {
  constructor(pkg: string) {
    super(404, 'app_not_installed', `The app ${pkg} is not installed on this device.`);
  }
}
