// The live view as `multipart/x-mixed-replace; boundary=frame` (what an `<img src>` plays):
// one JPEG part per frame, `fps` a second, paced against a fixed schedule so a slow frame
// does not lower the rate. The frames are scaled to a longest edge of LIVE_MAX_EDGE, enough
// for a browser and a quarter of the bytes of the full screen. Viewers of one device in one
// process share a frame taken less than FRAME_SHARE_MS ago, so twenty viewers cost a few
// captures a second, not eighty (and on `sim` the renderer caches encoded frames by screen
// content on top). The stream ends when the client leaves or the device stops answering.
import { Readable } from 'node:stream';
import type { DeviceDriver, Screenshot } from '../hosts/index.js';

export const LIVE_BOUNDARY = 'frame';
export const LIVE_CONTENT_TYPE = `multipart/x-mixed-replace; boundary=${LIVE_BOUNDARY}`;
export const LIVE_MAX_EDGE = 1280;
/** A frame this fresh is good enough for another viewer: well under one frame at 10 fps. */
export const FRAME_SHARE_MS = 50;

/** The latest live frame of each device in this process, shared by its viewers. */
export class SharedFrames {
  private readonly latest = new Map<number, { at: number; frame: Promise<Screenshot> }>();

  get(driver: DeviceDriver): Promise<Screenshot> {
    const now = Date.now();
    const cached = this.latest.get(driver.deviceId);
    if (cached && now - cached.at < FRAME_SHARE_MS) return cached.frame;
    const frame = driver.screenshot({ format: 'jpeg', maxEdge: LIVE_MAX_EDGE, quality: 70 });
    this.latest.set(driver.deviceId, { at: now, frame });
    // A failed capture is not shared beyond the viewers already waiting for it; nothing is kept for long.
    frame.then(
      () => setTimeout(() => this.latest.get(driver.deviceId)?.frame === frame && this.latest.delete(driver.deviceId), FRAME_SHARE_MS).unref(),
      () => this.latest.get(driver.deviceId)?.frame === frame && this.latest.delete(driver.deviceId),
    );
    return frame;
  }
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export function liveFrames(driver: DeviceDriver, fps: number, signal: AbortSignal, shared: SharedFrames = new SharedFrames()): Readable {
  const interval = 1000 / fps;
  async function* frames() {
    // Frames fall due on a grid of the wall clock, so viewers of one device at one rate ask at
    // the same moments and share one capture (SharedFrames).
    let due = Math.floor(Date.now() / interval) * interval;
    while (!signal.aborted) {
      let image;
      try {
        image = await shared.get(driver);
      } catch {
        return; // the device went away: end the stream, the viewer sees the last frame
      }
      yield Buffer.from(`--${LIVE_BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: ${image.data.length}\r\n\r\n`);
      yield image.data;
      yield Buffer.from('\r\n');
      // The next frame is due one interval after this one was due; after a stall, at once (the
      // grid point just passed) rather than a burst of the frames missed.
      due += interval;
      if (due < Date.now() - interval) due = Math.floor(Date.now() / interval) * interval;
      await wait(Math.max(0, due - Date.now()), signal);
    }
  }
  return Readable.from(frames(), { objectMode: false });
}
