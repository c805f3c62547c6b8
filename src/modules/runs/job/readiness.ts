// What a run needs before its macro starts: its device `ready` (a stopped device is started
// first, decisions.md §10) and, when the device has a proxy, the proxy's exit checked. Both
// belong to other modules (the device lifecycle, proxies), so the run job takes them as
// small interfaces the wiring fills in.
import type { ProxyRoutePlan } from './proxy-route.js';

export interface RunReadiness {
  /** Resolves once the device is `ready` (starting it if it is stopped); rejects with why it cannot be. */
  ensureReady(userId: number, deviceId: number, signal: AbortSignal): Promise<void>;
}

export interface ProxyExit {
  /** The proxy as a URL with its credentials, for the macro's own traffic (never logged). */
  proxyUrl: string;
  exitIp: string | null;
  country: string | null;
  /** The relay recipe (decisions.md §6), applied to devices that can be routed (`adb`). */
  relay?: ProxyRoutePlan;
}

/** The device's assigned proxy checked now; null when it has none. */
export type ProxyExitCheck = (userId: number, deviceId: number) => Promise<ProxyExit | null>;
