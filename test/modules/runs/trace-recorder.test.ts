// The trace recorder of the device-action catalogue (decisions.md §17) under the block
// interpreter on a simulated device, writing to memory: one step per action in order, frames
// before and after input deduplicated by their pixels, secret text masked, the failing step
// with its error and the screen it gave up on, the frame cap, and a failed write noted
// without failing the run.
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/hosts/index.js';
import { type DeviceDriver, frameOfScreen, TRACE_FRAME, TraceRecorder } from '../../../src/modules/devices/index.js';
import { runBlockProgram } from '../../../src/modules/runs/blocks/interpreter.js';
import { parseBlockProgram } from '../../../src/modules/runs/blocks/validate.js';
import { bootedSim } from '../devices/hosts/helpers/sim.js';
import { MemoryWriter } from './helpers/memory-trace-writer.js';
import { useImagesDb } from './helpers/images-db.js';

const world = useImagesDb();

/** The simulated device as an `adb` device looks to the recorder: screenshots only, no screens its inputs found or left, no inputs counted. */
const screenshotsOnly = (sim: DeviceDriver): DeviceDriver =>
  new Proxy(sim, {
    get(target, property) {
      if (['screenAfterLastInput', 'screenNow', 'inputsBegun', 'screenFoundByInput'].includes(String(property))) return undefined;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

async function traced(program: unknown, options: { maxFrames?: number; writer?: MemoryWriter; asAdb?: boolean } = {}) {
  const { driver: sim } = await bootedSim(world.t);
  const driver = options.asAdb ? screenshotsOnly(sim) : sim;
  const writer = options.writer ?? new MemoryWriter();
  const tracer = new TraceRecorder({ writer, startedMs: Date.now(), maxFrames: options.maxFrames ?? 500 });
  const lines: string[] = [];
  const outcome = await runBlockProgram({ program: parseBlockProgram(program, 'blocks'), driver, userId: world.t.userId, images: world.images, log: (l) => lines.push(l), maxSeconds: 60, tracer });
  await tracer.flush();
  return { outcome, writer, lines, driver };
}

const SIGN_UP = {
  version: 1,
  steps: [
    { type: 'log', message: 'not a step of the trace' },
    { type: 'open_app', package: DEMO_APP_PACKAGE },
    { type: 'wait_for', selector: { text: 'Corner Shop' }, timeout_ms: 3000 },
    { type: 'repeat', times: 2, steps: [{ type: 'tap', element_id: 'row_mug' }, { type: 'key', key: 'BACK' }] },
    { type: 'if_exists', selector: { text: 'Espresso beans' }, then: [{ type: 'wait', ms: 10 }] },
    { type: 'tap', x: 540, y: 2241 },
    { type: 'type', selector: { resource_id: 'full_name' }, text: 'hunter2-svc_0123456789abcdef0123456789abcdef0123456789abcdef', secret: true },
    { type: 'key', key: 'BACK' },
  ],
};

describe('a block run, traced', () => {
  test('one step per device action, in order, with block paths, frames and elements', async () => {
    const { outcome, writer } = await traced(SIGN_UP);
    expect(outcome.state, outcome.stateMessage ?? '').toBe('finished');
    const steps = writer.steps;
    expect(steps.map((s) => [s.seq, s.action, s.block_path])).toEqual([
      [1, 'app_open', 'steps.1'],
      [2, 'wait_for', 'steps.2'],
      [3, 'tap', 'steps.3.steps.0'],
      [4, 'key', 'steps.3.steps.1'],
      [5, 'tap', 'steps.3.steps.0'],
      [6, 'key', 'steps.3.steps.1'],
      [7, 'wait', 'steps.4.then.0'],
      [8, 'tap', 'steps.5'],
      [9, 'type', 'steps.6'],
      [10, 'key', 'steps.7'],
    ]);
    expect(steps.every((s) => s.outcome === 'ok' && s.interrupts.length === 0)).toBe(true);
    // Input actions have frames on both sides; waiting and reading ones none.
    for (const s of steps) {
      const input = !['wait_for', 'wait'].includes(s.action);
      expect(Boolean(s.frame_before) && Boolean(s.frame_after), `${s.seq} ${s.action}`).toBe(input);
    }
    expect(steps[2]!.element).toMatchObject({ text: expect.any(String), bounds: expect.any(Object) });
    expect(steps[1]!.args).toEqual({ selector: { text: 'Corner Shop' }, timeout_ms: 3000 });
    // The same screen twice is one frame: the mug's detail after step 3 and after step 5.
    const ids = writer.frames.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(steps[2]!.frame_after).toBe(steps[4]!.frame_after);
    expect(steps[3]!.frame_after).toBe(steps[5]!.frame_after);
    // Each step's "before" of an unchanged screen names the previous "after".
    expect(steps[3]!.frame_before).toBe(steps[2]!.frame_after);
    const referenced = new Set(steps.flatMap((s) => [s.frame_before, s.frame_after]).filter(Boolean));
    expect([...referenced].every((id) => ids.includes(id!))).toBe(true);
    const meta = await sharp(writer.frames[0]!.jpeg).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width!, meta.height!)).toBe(720);
  });

  test('on a device that only takes screenshots (adb): the same steps, frames on both sides of each input, the same screen one frame', async () => {
    const { outcome, writer } = await traced(SIGN_UP, { asAdb: true });
    expect(outcome.state, outcome.stateMessage ?? '').toBe('finished');
    const steps = writer.steps;
    expect(steps.map((s) => s.action)).toEqual(['app_open', 'wait_for', 'tap', 'key', 'tap', 'key', 'wait', 'tap', 'type', 'key']);
    for (const s of steps) {
      const input = !['wait_for', 'wait'].includes(s.action);
      expect(Boolean(s.frame_before) && Boolean(s.frame_after), `${s.seq} ${s.action}`).toBe(input);
    }
    expect(steps[2]!.frame_after).toBe(steps[4]!.frame_after);
    expect(steps[3]!.frame_before).toBe(steps[2]!.frame_after);
    const ids = writer.frames.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(steps.flatMap((s) => [s.frame_before, s.frame_after]).filter(Boolean).every((id) => ids.includes(id!))).toBe(true);
  });

  test('secret text is "•••" and a key-shaped text is redacted', async () => {
    const { writer } = await traced(SIGN_UP);
    const typed = writer.steps.find((s) => s.action === 'type')!;
    expect(typed.args).toMatchObject({ text: '•••', secret: true });
    expect(JSON.stringify(writer.steps)).not.toContain('hunter2');
    const plain = await traced({ version: 1, steps: [{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'tap', x: 540, y: 2241 }, { type: 'type', text: 'key svc_0123456789abcdef0123456789abcdef0123456789abcdef' }] });
    expect(JSON.stringify(plain.writer.steps)).not.toContain('svc_0123');
    expect(plain.writer.steps[2]!.args.text).toBe('key [redacted key]');
  });

  test('a failing step: error, outcome, and the screen it gave up on as its frame', async () => {
    const { outcome, writer } = await traced({ version: 1, steps: [{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'tap', selector: { text: 'No such button' }, timeout_ms: 300 }] });
    expect(outcome.state).toBe('failed');
    const last = writer.steps.at(-1)!;
    expect(last).toMatchObject({ seq: 2, action: 'tap', outcome: 'error', error: { code: 'element_not_found' }, block_path: 'steps.1' });
    expect(last.error!.message).toContain("text='No such button'");
    expect(last.frame_before).toBeDefined();
    expect(last.frame_after).toBeUndefined();
  });

  test('an interrupt handled while a step waited is named in that step', async () => {
    for (const asAdb of [false, true]) {
      const { outcome, writer } = await traced({
        version: 1,
        interrupts: [{ when: { text: 'Keep shopping' }, do: { type: 'tap' } }],
        steps: [
          { type: 'open_app', package: DEMO_APP_PACKAGE },
          { type: 'tap', element_id: 'row_beans' },
          { type: 'tap', selector: { text: 'Add to cart' } },
          { type: 'wait_for', selector: { text: 'Ceramic mug' }, timeout_ms: 3000 },
        ],
      });
      expect(outcome.state, outcome.stateMessage ?? '').toBe('finished');
      expect(writer.steps.map((s) => s.interrupts)).toEqual([[], [], [], ["tap text='Keep shopping'"]]);
      // The wait made no input of its own: its "before" is the screen the interrupt's tap found (the dialog).
      const wait = writer.steps[3]!;
      expect(wait.frame_before, `asAdb ${asAdb}`).toBeDefined();
      expect(wait.frame_before).toBe(writer.steps[2]!.frame_after);
    }
  });

  test('past RUN_TRACE_MAX_FRAMES steps go on without frames and the batch says frames_capped', async () => {
    const { writer } = await traced(SIGN_UP, { maxFrames: 2 });
    expect(writer.steps).toHaveLength(10);
    expect(new Set(writer.frames.map((f) => f.id)).size).toBe(2);
    expect(writer.batches.at(-1)!.framesCapped).toBe(true);
    expect(writer.steps.at(-1)!.frame_after).toBeUndefined();
  });

  test("drain answers what is not written yet, after the writes before it, for the run's end to store; nothing is recorded after", async () => {
    const { driver } = await bootedSim(world.t);
    const writer = new MemoryWriter();
    const tracer = new TraceRecorder({ writer, startedMs: Date.now(), maxFrames: 500 });
    const run = (steps: unknown[]) => runBlockProgram({ program: parseBlockProgram({ version: 1, steps }, 'blocks'), driver, userId: world.t.userId, images: world.images, log: () => {}, maxSeconds: 60, tracer });
    await run([{ type: 'open_app', package: DEMO_APP_PACKAGE }]);
    await tracer.flush();
    expect(writer.steps.map((s) => s.seq)).toEqual([1]);
    await run([{ type: 'tap', element_id: 'row_mug' }]);
    const last = await tracer.drain();
    // The tap is the recorder's to hand out, with its frames; the writer never saw it.
    expect(writer.steps.map((s) => s.seq)).toEqual([1]);
    expect(last.steps).toMatchObject([{ seq: 2, action: 'tap', frame_before: expect.any(String), frame_after: expect.any(String) }]);
    const shown = new Set([...writer.frames, ...last.frames].map((f) => f.id));
    expect(shown.has(last.steps[0]!.frame_before!) && shown.has(last.steps[0]!.frame_after!)).toBe(true);
    expect(last.frames.every((f) => !writer.frames.some((w) => w.id === f.id))).toBe(true);
    // Nothing is left queued or timed: no later write comes.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(writer.batches).toHaveLength(1);
    expect(await tracer.drain()).toEqual({ steps: [], frames: [], framesCapped: false });
  });

  test("a run that ends right after an input: that step's after is the screen the input left, with no look at the device; with a step after it, a look at the end", async () => {
    for (const [program, looks] of [
      [[{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'tap', element_id: 'row_mug' }], 0],
      [[{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'tap', element_id: 'row_mug' }, { type: 'wait_for', selector: { text: 'Add to cart' }, timeout_ms: 3000 }], 1],
    ] as const) {
      const { driver: sim } = await bootedSim(world.t);
      // The device as the run drives it, counting the recorder's looks at the screen.
      let counted = 0;
      const driver = new Proxy(sim, {
        get(target, property) {
          const value = Reflect.get(target, property, target);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (property === 'screenNow' || property === 'screenshot') counted += 1;
            return value.apply(target, args);
          };
        },
      });
      const writer = new MemoryWriter();
      const tracer = new TraceRecorder({ writer, startedMs: Date.now(), maxFrames: 500 });
      await runBlockProgram({ program: parseBlockProgram({ version: 1, steps: program }, 'blocks'), driver, userId: world.t.userId, images: world.images, log: () => {}, maxSeconds: 60, tracer });
      counted = 0;
      await tracer.flush();
      expect(counted, JSON.stringify(program.at(-1))).toBe(looks);
      const tap = writer.steps.find((s) => s.action === 'tap')!;
      const mugPage = await frameOfScreen((await sim.screenshot(TRACE_FRAME)).data);
      expect(tap.frame_after).toBe(mugPage.id);
      expect(writer.frames.map((f) => f.id)).toContain(mugPage.id);
    }
  });

  test('a write that fails is noted and the run still finishes', async () => {
    const writer = new MemoryWriter();
    writer.failNext = 1;
    const { outcome } = await traced(SIGN_UP, { writer });
    expect(outcome.state).toBe('finished');
    expect(writer.notes).toHaveLength(1);
    expect(writer.notes[0]).toMatch(/^steps 1 to \d+ could not be stored: disk full$/);
  });
});
