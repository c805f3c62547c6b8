// The ADB device host (DEVICE_HOST=adb): real phones, emulators and redroid containers on
// one or more ADB servers. Placing binds a free serial to the cloud device in the database
// (unique, so every process agrees who has which phone); booting waits for
// `sys.boot_completed`, wakes the screen and records its size; shutting down frees the serial.
import type { AdbDeviceSelector, AdbServerAddress } from '../../../../config.js';
import type { Db } from '../../../../db/database.js';
import { type Clock, systemClock } from '../../../../lib/clock.js';
import { DeviceHostFaultError, DeviceNotFoundError, DeviceNotReadyError, NoDeviceCapacityError } from '../errors.js';
import { PlacementStore, slotName } from '../placements.js';
import type { DeviceDriver, DeviceHost, HostCapacity, Placement } from '../types.js';
import { NamedLockTimeoutError, withNamedLock } from '../../../../db/named-locks.js';
import { AdbDriver, type AdbDriverOptions, type AdbDriverShared } from './adb-driver.js';
import { ApkLabels } from './apk-labels.js';
import { applyBoundSettings, dismissKeyguard, parseSavedSettings, readBoundSettings, restoreBoundSettings } from './bound-settings.js';
import { displayThatIsOn, physicalDisplays, SeenRotations } from './display.js';
import { SeenTrees } from './seen-trees.js';
import { type AdbTarget, isNetworkSerial, shellText } from './commands.js';
import { reconnect } from './servers.js';
import { runInput } from './input.js';
import { AdbServers } from './servers.js';
import { messageOf } from '../../../../lib/error-message.js';

export interface AdbHostOptions {
  db: Db;
  clock?: Clock;
  /** ADB_SERVERS */
  servers: AdbServerAddress[];
  /** ADB_DEVICES; empty: every device the servers list. */
  devices: AdbDeviceSelector[];
  /** Longest wait for `sys.boot_completed` (default 120 s) and how often to ask (1 s). */
  bootTimeoutMs?: number;
  bootPollMs?: number;
  driver?: Partial<AdbDriverOptions>;
}

/** Restoring a phone's settings at stop waits at most this long: a phone that is gone must not hold the stop. */
const RESTORE_TIMEOUT_MS = 5000;

const DEFAULT_DRIVER: AdbDriverOptions = { commandTimeoutMs: 30_000, installTimeoutMs: 300_000, uiDumpAttempts: 4, uiDumpBackoffMs: 250, textMsPerChar: 50 };

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

export class AdbHost implements DeviceHost {
  readonly kind = 'adb' as const;
  private readonly clock: Clock;
  private readonly placements: PlacementStore;
  private readonly servers: AdbServers;
  private readonly labels: ApkLabels;
  private readonly driverOptions: AdbDriverOptions;
  private readonly shared: AdbDriverShared;

  constructor(private readonly options: AdbHostOptions) {
    this.clock = options.clock ?? systemClock;
    this.placements = new PlacementStore(options.db, this.clock);
    this.driverOptions = { ...DEFAULT_DRIVER, ...options.driver };
    this.servers = new AdbServers(options.servers, options.devices, this.driverOptions.commandTimeoutMs);
    this.labels = new ApkLabels(options.db, this.clock);
    const timeoutMs = this.driverOptions.commandTimeoutMs;
    this.shared = {
      rotations: new SeenRotations(),
      trees: new SeenTrees(),
      // One UI automation client per phone (Android's rule), whichever process asks. The lock
      // times with the wall clock: it guards the phone, not business time.
      exclusiveUi: (slot, work) =>
        withNamedLock(options.db, systemClock, `adb-ui-dump:${slot}`, { leaseMs: timeoutMs + 5000, waitMs: timeoutMs }, work).catch((error: unknown) => {
          if (error instanceof NamedLockTimeoutError) throw new DeviceHostFaultError(`Another UI dump of ${slot} has been running for ${Math.round(timeoutMs / 1000)} s; try again.`);
          throw error;
        }),
    };
  }

  async place(deviceId: number): Promise<Placement> {
    const existing = await this.placements.get(deviceId);
    if (existing) {
      if (existing.host !== 'adb') throw new DeviceHostFaultError(`Device ${deviceId} is placed on the ${existing.host} host; stop it first.`);
      return existing;
    }
    const bound = await this.placements.boundSlots('adb');
    for (const claim of await this.servers.available()) {
      if (bound.has(slotName(claim))) continue;
      // Another process may take the same serial between our read and this insert; the
      // unique slot makes one of us lose, and the loser tries the next serial.
      const placement = await this.placements.insert(deviceId, 'adb', claim);
      if (placement) return placement;
    }
    throw new NoDeviceCapacityError('every ADB device in the pool is in use');
  }

  async capacityFor(deviceId: number): Promise<HostCapacity> {
    if (await this.placements.get(deviceId)) return { available: true };
    let usable;
    try {
      usable = await this.servers.available();
    } catch (error) {
      return { available: false, reason: messageOf(error) };
    }
    const bound = await this.placements.boundSlots('adb');
    if (usable.some((claim) => !bound.has(slotName(claim)))) return { available: true };
    return {
      available: false,
      reason: usable.length === 0 ? 'no ADB device of the pool is online' : `every ADB device of the pool (${usable.length}) is in use by another running cloud device`,
    };
  }

  private async target(deviceId: number): Promise<{ target: AdbTarget; row: NonNullable<Awaited<ReturnType<PlacementStore['row']>>> }> {
    const row = await this.placements.row(deviceId);
    if (!row || row.host !== 'adb' || !row.server || !row.serial) throw new DeviceNotFoundError(deviceId);
    return { target: this.targetFor(row.server, row.serial), row };
  }

  /** The device on its server; a network device can be connected again when the server forgot it. */
  private targetFor(server: string, serial: string): AdbTarget {
    const client = this.servers.client(server);
    const target: AdbTarget = { device: client.getDevice(serial), server, serial };
    if (isNetworkSerial(serial)) {
      const at = serial.lastIndexOf(':');
      target.reconnect = () => reconnect(client, serial.slice(0, at), Number(serial.slice(at + 1)), this.driverOptions.commandTimeoutMs);
    }
    return target;
  }

  async boot(deviceId: number, options: { signal?: AbortSignal } = {}): Promise<void> {
    const { target } = await this.target(deviceId);
    await this.placements.setStatus(deviceId, ['placed', 'booting', 'ready'], 'booting');
    const timeout = this.options.bootTimeoutMs ?? 120_000;
    const deadline = Date.now() + timeout;
    const ask = Math.min(this.driverOptions.commandTimeoutMs, timeout);
    // Until the deadline, a failing ask is a blip (the device goes offline while it boots, the
    // server restarts, a network device must be connected again), not the end of the boot.
    let last: unknown;
    for (;;) {
      try {
        if ((await shellText(target, 'getprop sys.boot_completed', ask)).trim() === '1') break;
        last = undefined;
      } catch (error) {
        if (!(error instanceof DeviceHostFaultError)) throw error;
        last = error;
      }
      if (Date.now() >= deadline) throw new DeviceHostFaultError(`${target.serial} did not finish booting within ${timeout} ms${last ? ` (last: ${messageOf(last)})` : ''}.`);
      await sleep(this.options.bootPollMs ?? 1000, options.signal);
    }
    options.signal?.throwIfAborted();
    // The phone's own settings first (kept once: a boot run again keeps the first reading),
    // then kept awake with animations off while bound (bound-settings.ts).
    const kept = await this.placements.keepRestoreSettings(deviceId, JSON.stringify(await readBoundSettings(target, ask)));
    await applyBoundSettings(target, ask);
    // An injected event: a phone that refuses them (INJECT_EVENTS) fails here, with the fix in the message.
    await runInput(target, 'input keyevent KEYCODE_WAKEUP', ask);
    await dismissKeyguard(target, ask);
    const screen = await this.readScreen(target, ask);
    if (!(await this.placements.markReady(deviceId, screen))) {
      // Stopped while it booted: the stop restored what it found; put back what this boot changed after that.
      const saved = parseSavedSettings(kept);
      if (saved) await restoreBoundSettings(target, saved, ask).catch(() => undefined);
      throw new DeviceNotFoundError(deviceId, 'was shut down while it booted');
    }
  }

  /**
   * `wm size` / `wm density` (an override set by the operator wins over the physical value),
   * and on a phone with several physical displays (a foldable) the one that is on, for screencap.
   */
  private async readScreen(target: AdbTarget, ms: number): Promise<{ width: number; height: number; density: number; display: string | null }> {
    const displays = physicalDisplays(await shellText(target, 'dumpsys SurfaceFlinger --display-id', ms));
    const display = displays.length > 1 ? displayThatIsOn(await shellText(target, 'cmd display get-displays', ms)) : null;
    const size = await shellText(target, 'wm size', ms);
    const density = await shellText(target, 'wm density', ms);
    const pick = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].pop();
    const s = pick(size, /(?:Physical|Override) size: (\d+)x(\d+)/g);
    const d = pick(density, /(?:Physical|Override) density: (\d+)/g);
    if (!s) throw new DeviceHostFaultError(`${target.serial} did not report its screen size (wm size answered "${size.trim().slice(0, 100)}").`);
    return { width: Number(s[1]), height: Number(s[2]), density: d ? Number(d[1]) : 160, display };
  }

  /** Gives the phone its own settings back (best effort: an unplugged phone must not keep its serial bound), then frees the serial. */
  async shutdown(deviceId: number): Promise<void> {
    const row = await this.placements.row(deviceId);
    const saved = parseSavedSettings(row?.restore_settings ?? null);
    if (row?.host === 'adb' && row.server && row.serial && saved) {
      const { server, serial } = row;
      await Promise.resolve()
        .then(() => restoreBoundSettings(this.targetFor(server, serial), saved, RESTORE_TIMEOUT_MS))
        .catch(() => undefined);
    }
    await this.placements.remove(deviceId);
  }

  placement(deviceId: number): Promise<Placement | null> {
    return this.placements.get(deviceId);
  }

  async driver(deviceId: number): Promise<DeviceDriver> {
    const { target, row } = await this.target(deviceId);
    if (row.status !== 'ready' || row.screen_width === null || row.screen_height === null) throw new DeviceNotReadyError(deviceId);
    const size = { width: row.screen_width, height: row.screen_height, density: row.density ?? 160 };
    return new AdbDriver(deviceId, target, size, this.shared, this.labels, this.driverOptions, row.screen_display);
  }

  async close(): Promise<void> {
    // adbkit holds no connection between commands.
  }
}
