// The live view's frame rate on a phone. A phone's `screencap -p` takes 0.5–1.5 s a frame (it
// encodes a full-size PNG on the device); the fake ADB server adds that delay before it
// answers, so this measures what the live view (src/modules/devices/actions/live.ts: one
// capture at a time per device and process, scaled to 1280 px JPEG here) delivers over it.
// Baseline in the same run: the fake with no delay (our side alone). Each case streams for
// DURATION_MS at the requested rate and counts the frames that arrive.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { liveFrames, SharedFrames } from '../../src/modules/devices/actions/live.js';
import type { DeviceDriver } from '../../src/modules/devices/hosts/types.js';
import type { FakeAndroidDevice } from '../../test/helpers/fake-adb/device.js';
import type { FakeAdbServer } from '../../test/helpers/fake-adb/server.js';
import { bootedAdb, startFakeAdb } from '../../test/modules/devices/hosts/helpers/adb.js';
import { type HostTestDb, openHostTestDb } from '../../test/modules/devices/hosts/helpers/database.js';

const DURATION_MS = Number(process.env.LIVE_BENCH_MS ?? 6000);
let t: HostTestDb;
let server: FakeAdbServer;
let phone: FakeAndroidDevice;
let driver: DeviceDriver;

beforeAll(async () => {
  t = await openHostTestDb();
  server = await startFakeAdb([{ serial: 'emulator-5554' }]);
  phone = server.devices.get('emulator-5554')!;
  driver = (await bootedAdb(t, [server])).driver;
  await driver.openApp('com.example.shop');
});
afterAll(async () => {
  await server.close();
  await t.close();
});

/** Frames per second that `viewers` viewers of the device (in one process) each received. */
async function stream(fps: number, viewers: number): Promise<number> {
  const shared = new SharedFrames();
  const controller = new AbortController();
  const counts = Array.from({ length: viewers }, () => 0);
  const started = performance.now();
  const done = Promise.all(
    counts.map(async (_, i) => {
      for await (const chunk of liveFrames(driver, fps, controller.signal, shared)) if ((chunk as Buffer).subarray(0, 7).toString() === '--frame') counts[i] += 1;
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, DURATION_MS));
  controller.abort();
  await done;
  const seconds = (performance.now() - started) / 1000;
  return Number((Math.min(...counts) / seconds).toFixed(2));
}

test('live view frames per second: the fake with a phone’s screencap delay against no delay', async () => {
  const rows: [string, number][] = [];
  for (const [delay, fps, viewers] of [
    [0, 4, 1],
    [0, 10, 1],
    [500, 4, 1],
    [1000, 4, 1],
    [1500, 4, 1],
    [1000, 4, 3],
  ] as const) {
    phone.behaviour.screencapMs = delay;
    rows.push([`screencap +${delay} ms, ${fps} fps asked, ${viewers} viewer${viewers > 1 ? 's' : ''}`, await stream(fps, viewers)]);
  }
  phone.behaviour.screencapMs = 0;
  const baseline = rows[0][1];
  process.stdout.write(`\nlive view over the fake ADB server, ${DURATION_MS} ms per case\n${rows.map(([name, rate]) => `  ${name.padEnd(48)} ${String(rate).padStart(6)} frames/s   ${(rate / baseline).toFixed(2)}× baseline`).join('\n')}\n`);
  expect(rows[0][1]).toBeGreaterThan(1);
  // A 1 s capture can give at most one frame a second, and the stream keeps up with it.
  expect(rows[3][1]).toBeLessThanOrEqual(1.05);
  expect(rows[3][1]).toBeGreaterThan(0.6);
});
