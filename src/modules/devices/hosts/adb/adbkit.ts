// adbkit is CommonJS with an `__esModule` flag: Node's ESM loader and bundlers (vitest)
// disagree on what its default import is. `require` gives the same module object everywhere.
import { createRequire } from 'node:module';
import type * as AdbkitModule from '@devicefarmer/adbkit';

const adbkit = createRequire(import.meta.url)('@devicefarmer/adbkit') as typeof AdbkitModule;

export const Adb = adbkit.Adb;
export const KeyCodes = adbkit.KeyCodes;
export type { Client as AdbClient, DeviceClient } from '@devicefarmer/adbkit';
