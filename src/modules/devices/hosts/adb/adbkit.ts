// adbkit is CommonJS with an `__esModule` flag: Node's ESM loader and bundlers (vitest)
// disagree on what its default import is. `require` gives the same module object everywhere.
// Loaded when an adb host is first used: with its dependencies it costs about 0.1 s of a start
// that may never need it (issue 34 point 4). Its key table comes on its own, without the rest.
import type * as AdbkitModule from '@devicefarmer/adbkit';
import { packageOnDemand } from '../../../../lib/package-on-demand.js';

export const adbkit = packageOnDemand<typeof AdbkitModule>('@devicefarmer/adbkit');
export const { KeyCodes } = packageOnDemand<{ KeyCodes: typeof AdbkitModule.KeyCodes }>('@devicefarmer/adbkit/dist/src/adb/keycode.js')();
export type { Client as AdbClient, DeviceClient } from '@devicefarmer/adbkit';
