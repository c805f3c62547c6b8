// The device-host library's front door: the interface, its typed errors, both hosts, and
// `createDeviceHost`, which builds the host DEVICE_HOST asks for. The lifecycle worker and
// the device routes use only what is exported here.
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import { AdbHost, type AdbHostOptions } from './adb/adb-host.js';
import type { SimFaultInjector } from './sim/faults.js';
import { FIELD_GUIDE_PACKAGE, fieldGuideApp } from './sim/apps/field-guide/index.js';
import { loadSimAppsDir } from './sim/apps-dir.js';
import { SimHost } from './sim/sim-host.js';
import type { DeviceHost } from './types.js';

export type * from './types.js';
export { HOST_KINDS } from './types.js';
export { ApkInstallFailedError, AppNotInstalledError, DeviceHostFaultError, DeviceNotFoundError, DeviceNotReadyError, DeviceStoppedWhileWaitingError, InvalidApkError, NoDeviceCapacityError } from './errors.js';
export { parseAndroidKey } from './keys.js';
export { scaledSize } from './input-checks.js';
export { readApkManifest } from './apk/manifest.js';
export { SimHost, type SimHostOptions } from './sim/sim-host.js';
export { SimFaults, type SimFault, type SimFaultInjector, type SimOperation } from './sim/faults.js';
export { SIM_SCREEN } from './sim/app-schema.js';
export { DEMO_APP_PACKAGE, demoApp } from './sim/catalogue.js';
export { DAILY_FEED_PACKAGE } from './sim/apps/daily-feed/index.js';
// A larger generated app whose graph is known, for testing and measuring the menu-map explorer.
export { FIELD_GUIDE_PACKAGE, fieldGuideApp } from './sim/apps/field-guide/index.js';
export type { SimApp } from './sim/app-schema.js';
// A simulated screen drawn without a device: fixtures for matching and OCR, benchmarks, docs.
export { renderSimScreen, type SimScreenPicture, type SimScreenRequest } from './sim/offline-screen.js';
export type { DrawnText } from './sim/render/drawn-text.js';
export { AdbHost, type AdbHostOptions } from './adb/adb-host.js';

export interface DeviceHostDeps {
  db: Db;
  clock?: Clock;
  /** sim only: fault injection for tests. */
  simFaults?: SimFaultInjector;
  /** sim only: more app descriptions to preinstall. */
  simApps?: unknown[];
  /** adb only: time limits and retries. */
  adb?: Pick<AdbHostOptions, 'bootTimeoutMs' | 'bootPollMs' | 'driver'>;
}

export function createDeviceHost(
  config: Pick<Config, 'deviceHost' | 'simBootMs' | 'adbServers' | 'adbDevices'> & Partial<Pick<Config, 'simExtraApps' | 'simSeed' | 'simAppsDir'>>,
  deps: DeviceHostDeps,
): DeviceHost {
  if (config.deviceHost === 'adb') {
    return new AdbHost({ db: deps.db, clock: deps.clock, servers: config.adbServers, devices: config.adbDevices, ...deps.adb });
  }
  // SIM_EXTRA_APPS: the larger built-in apps a deployment (a benchmark, a demo) asks for.
  const extra = (config.simExtraApps ?? []).map(() => fieldGuideApp());
  // SIM_APPS_DIR: people's own app descriptions, read and checked here, when the modules are
  // built at start-up: a file that does not parse, breaks a rule or repeats a package stops it
  // with a ConfigError naming the setting and the file.
  const own = config.simAppsDir ? loadSimAppsDir(config.simAppsDir, extra.length > 0 ? [FIELD_GUIDE_PACKAGE] : []) : [];
  return new SimHost({ db: deps.db, clock: deps.clock, bootMs: config.simBootMs, seed: config.simSeed, faults: deps.simFaults, apps: [...extra, ...own, ...(deps.simApps ?? [])] });
}
