// The trace recorder on a device that counts its inputs and keeps the screen each found (as
// `sim` does), driven by hand: a step's "after" is the screen its successor's input found,
// never a read of the device made after that input, and a step whose "after" is still being
// waited for when the next input offers no screen gets its look at once.
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { type DeviceDriver, frameOfScreen, TraceRecorder } from '../../../src/modules/devices/index.js';
import { MemoryWriter } from './helpers/memory-trace-writer.js';
import { useImagesDb } from './helpers/images-db.js';

const world = useImagesDb();

describe('a device that counts its inputs (sim), driven by hand', () => {
  /** Screens A, B, C… as one-colour JPEGs; each tap moves to the next; inputs counted as `sim` counts them. */
  async function countingDevice() {
    const pictures = await Promise.all(['#c00', '#0c0', '#00c', '#cc0'].map((background) => sharp({ create: { width: 36, height: 80, channels: 3, background } }).jpeg().toBuffer()));
    let current = 0;
    const found = new Map<number, number>();
    let inputs = 0;
    const reads = { looks: 0 };
    const screen = (index: number) => ({ key: `screen-${index}`, draw: async () => ({ data: pictures[index]!, format: 'jpeg' as const, width: 36, height: 80 }) });
    const device = {
      deviceId: 1,
      inputsBegun: () => inputs,
      screenFoundByInput: (input: number) => (found.has(input) ? screen(found.get(input)!) : undefined),
      screenNow: async () => (reads.looks++, screen(current)),
      async tap() {
        inputs += 1;
        found.set(inputs, current);
        current += 1;
        return null;
      },
      inputsNudged() {
        inputs += 1;
      },
    } as unknown as DeviceDriver;
    return { device, reads, frameOf: async (index: number) => (await frameOfScreen(pictures[index]!)).id };
  }

  test("a step still under way when the previous step's after is looked for: that after is the screen the step's input found, not the screen its input made, and the device is not read for it", async () => {
    const { device, reads, frameOf } = await countingDevice();
    const writer = new MemoryWriter();
    const tracer = new TraceRecorder({ writer, startedMs: Date.now(), maxFrames: 500 });
    const env = { driver: device, owner: { userId: world.t.userId }, vision: world.images };
    await tracer.step({ action: 'tap', args: {} }, env, (e) => e.driver.tap(1, 1));
    // The next step taps at once (screen 1 to 2), then goes on past the 150 ms of the first look.
    await tracer.step({ action: 'tap', args: {} }, env, async (e) => {
      await e.driver.tap(1, 1);
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    expect(reads.looks).toBe(0);
    await tracer.flush();
    const [first, second] = writer.steps;
    expect(first!.frame_before).toBe(await frameOf(0));
    expect(first!.frame_after).toBe(await frameOf(1));
    expect(second!.frame_before).toBe(await frameOf(1));
  });

  test("a waiting step's after, when the next step's input offers no screen, is looked for at once: the trace is still written", async () => {
    const { device, reads, frameOf } = await countingDevice();
    // An input the device counts but that found no screen to offer (as one refused before looking).
    const blind = { nudge: () => (device as unknown as { inputsNudged(): void }).inputsNudged() };
    const writer = new MemoryWriter();
    const tracer = new TraceRecorder({ writer, startedMs: Date.now(), maxFrames: 500 });
    const env = { driver: device, owner: { userId: world.t.userId }, vision: world.images };
    await tracer.step({ action: 'tap', args: {} }, env, (e) => e.driver.tap(1, 1));
    await tracer.step({ action: 'tap', args: {} }, env, async () => blind.nudge());
    // The first step's after took one look, at the screen as it is (B), without waiting for a timer.
    expect(reads.looks).toBe(1);
    const flushed = await Promise.race([tracer.flush().then(() => 'written'), new Promise((resolve) => setTimeout(() => resolve('stuck'), 3000))]);
    expect(flushed).toBe('written');
    const [first, second] = writer.steps;
    expect(first!.frame_after).toBe(await frameOf(1));
    expect(second!.frame_before).toBeUndefined();
  });
});
