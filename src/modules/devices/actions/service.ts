// Seeing and touching a cloud device from the application (app-api.md, "Devices and
// groups"): screenshots, the live view, installed apps and APK installs. Every action needs
// the caller's cloud device in `ready` (409 `device_not_ready` otherwise) and goes to the
// device host, which any process can drive.
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../../core/context.js';
import { PayloadTooLargeError } from '../../../core/errors.js';
import { type ActiveRunCheck, assertNoActiveRun, assertNoJobHold } from '../idle.js';
import { type Clock, systemClock } from '../../../lib/clock.js';
import type { Database } from '../../../db/schema.js';
import { findCloudDevice } from '../cloud-device.js';
import { type ApkInfo, type DeviceDriver, type DeviceHost, DeviceNotReadyError, type ImageFormat, type InstalledApp, type Screenshot, type UiElement } from '../hosts/index.js';
import { liveFrames, SharedFrames } from './live.js';

export const APK_MAX_BYTES = 200 * 1024 * 1024;

export interface ScreenshotInput {
  id: number;
  format?: ImageFormat;
  max_edge?: number;
}

/**
 * The body, failing with 413 once more than `limit` bytes have passed: an upload is never
 * trusted to stop by itself. Lazy (nothing is read until the host reads), so the failure
 * always reaches the reader.
 */
function byteLimited(body: Readable, limit: number): Readable {
  async function* limited() {
    let seen = 0;
    for await (const chunk of body) {
      seen += (chunk as Buffer).length;
      if (seen > limit) {
        body.destroy();
        throw new PayloadTooLargeError(limit);
      }
      yield chunk as Buffer;
    }
  }
  return Readable.from(limited(), { objectMode: false });
}

export class DeviceActions {
  private readonly frames = new SharedFrames();

  private readonly apkMaxBytes: number;

  private readonly clock: Clock;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly host: DeviceHost,
    private readonly hasActiveRun: ActiveRunCheck,
    options: { apkMaxBytes?: number; clock?: Clock } = {},
  ) {
    this.apkMaxBytes = options.apkMaxBytes ?? APK_MAX_BYTES;
    this.clock = options.clock ?? systemClock;
  }

  /** A driver for the caller's cloud device, which must be `ready`. */
  async driverFor(ctx: Pick<ServiceContext, 'userId'>, deviceId: number): Promise<DeviceDriver> {
    const device = await findCloudDevice(this.db, ctx.userId, deviceId);
    if (device.hosted_state !== 'ready') throw new DeviceNotReadyError(deviceId);
    return this.host.driver(deviceId);
  }

  async screenshot(ctx: Pick<ServiceContext, 'userId'>, input: ScreenshotInput): Promise<Screenshot> {
    const driver = await this.driverFor(ctx, input.id);
    return driver.screenshot({ format: input.format ?? 'png', maxEdge: input.max_edge });
  }

  /** The live view: JPEG frames at `fps` as a multipart stream, until `signal` aborts (the client left) or the device stops. */
  async live(ctx: Pick<ServiceContext, 'userId'>, input: { id: number; fps?: number }, signal: AbortSignal): Promise<Readable> {
    const driver = await this.driverFor(ctx, input.id);
    return liveFrames(driver, input.fps ?? 4, signal, this.frames);
  }

  async apps(ctx: Pick<ServiceContext, 'userId'>, input: { id: number }): Promise<{ items: InstalledApp[] }> {
    const driver = await this.driverFor(ctx, input.id);
    return { items: await driver.listApps() };
  }

  /**
   * A tap from the person looking at the live view (our extension of the contract, see
   * docs/cloud-devices.md): refused with 409 `device_busy` while a cloud run is active, so a
   * person never fights a running macro, and while a recording or an exploration holds the device. The element hit is reported when the host knows it without delaying the tap.
   */
  async tap(ctx: Pick<ServiceContext, 'userId'>, input: { id: number; x: number; y: number }): Promise<{ element: UiElement | null }> {
    const driver = await this.driverFor(ctx, input.id);
    await assertNoActiveRun(this.hasActiveRun, this.db, { deviceId: input.id, action: 'tap' });
    await assertNoJobHold(this.db, input.id, this.clock.now());
    return { element: await driver.tap(input.x, input.y, { identify: true }) };
  }

  /** Installs the uploaded APK; the body is spooled to a private file by the host, never held whole in memory. */
  async installApk(ctx: Pick<ServiceContext, 'userId'>, input: { id: number; body: Readable; declaredBytes?: number }): Promise<ApkInfo> {
    // A declared length over the limit is refused before a byte is read.
    if (input.declaredBytes !== undefined && input.declaredBytes > this.apkMaxBytes) throw new PayloadTooLargeError(this.apkMaxBytes);
    const driver = await this.driverFor(ctx, input.id);
    return driver.installApk(byteLimited(input.body, this.apkMaxBytes));
  }
}
