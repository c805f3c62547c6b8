// What a run needs before its macro starts: its device `ready` (a stopped device is started
// first, decisions.md §10) and, when the device has a proxy, the proxy's exit checked. Both
// belong to other modules, whose services the wiring hands in as they are: the device
// lifecycle's start-and-wait, and the proxies module's run check, which answers this shape.
import type { DeviceLifecycle } from '../../devices/index.js';
import type { ProxyRoutePlan } from './proxy-route.js';

/** `startAndWait` resolves once the device is `ready` (starting it if it is stopped); rejects with why it cannot be. */
export type RunReadiness = Pick<DeviceLifecycle, 'startAndWait'>;

export interface ProxyExit {
  /** The proxy as a URL with its credentials, for the macro's own traffic (never logged). */
  proxyUrl: string;
  exitIp: string | null;
  country: string | null;
  /** The relay recipe (decisions.md §6), applied to devices that can be routed (`adb`). */
  relay?: ProxyRoutePlan;
}

export interface ProxyExitCheck {
  /** The device's assigned proxy checked now; null when it has none. */
  check(userId: number, deviceId: number): Promise<ProxyExit | null>;
}
