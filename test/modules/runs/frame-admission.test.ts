// What each picture a trace recorder takes becomes (frame-admission.ts): decided in the order
// the pictures were taken, even when a screen already drawn is admitted at once and one taken
// before it is still being drawn; a screen drawn once is not drawn again by any recorder that
// shares the memory; a drawing that fails is forgotten and said.
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import type { Screenshot, UndrawnScreen } from '../../../src/modules/devices/hosts/types.js';
import { type DrawnFrames, FrameAdmission } from '../../../src/modules/devices/catalogue/trace/frame-admission.js';
import { FrameBook } from '../../../src/modules/devices/catalogue/trace/frames.js';

const jpegOf = (r: number, g: number, b: number) => sharp({ create: { width: 8, height: 8, channels: 3, background: { r, g, b } } }).jpeg().toBuffer();

/** A screen whose drawing the test lets finish (`release`), counting the drawings asked. */
function screen(key: string, jpeg: Promise<Buffer>) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const s = {
    draws: 0,
    release,
    undrawn: {
      key,
      draw: async (): Promise<Screenshot> => {
        s.draws += 1;
        await gate;
        return { data: await jpeg, format: 'jpeg' } as Screenshot;
      },
    } satisfies UndrawnScreen,
  };
  return s;
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('FrameAdmission', () => {
  test('a screen drawn before waits its turn behind one still being drawn: capture order decides which is kept under the cap', async () => {
    const drawn: DrawnFrames = new Map();
    const problems: string[] = [];
    const known = screen('known', jpegOf(200, 10, 10));
    const fresh = screen('fresh', jpegOf(10, 10, 200));
    known.release();
    // Another run of the process drew the known screen already.
    const other = new FrameAdmission(new FrameBook(500), drawn, (m) => problems.push(m));
    const knownId = await other.undrawn(known.undrawn);
    await settled();

    const book = new FrameBook(1);
    const admission = new FrameAdmission(book, drawn, (m) => problems.push(m));
    const first = admission.undrawn(fresh.undrawn);
    const second = admission.undrawn(known.undrawn);
    fresh.release();
    // One frame at most: the first picture taken is kept, the second finds the cap.
    const freshId = await first;
    expect(freshId).toMatch(/^fr_[0-9a-f]{24}$/);
    expect(await second).toBeUndefined();
    expect(book.capped).toBe(true);
    expect(book.take().map((f) => f.id)).toEqual([freshId]);
    expect(knownId).not.toBe(freshId);
    expect(known.draws).toBe(1);
    expect(problems).toEqual([]);
  });

  test('with nothing waiting, a screen drawn before is admitted at once, its repeats name the same frame, and no recorder draws it again', async () => {
    const drawn: DrawnFrames = new Map();
    const s = screen('a', jpegOf(10, 200, 10));
    s.release();
    const book = new FrameBook(500);
    const admission = new FrameAdmission(book, drawn, () => {});
    const id = await admission.undrawn(s.undrawn);
    await settled();
    expect(drawn.get('a')?.done?.id).toBe(id);
    // Three looks at the same screen: one frame, drawn once.
    expect(await Promise.all([admission.undrawn(s.undrawn), admission.undrawn(s.undrawn)])).toEqual([id, id]);
    expect(book.take().map((f) => f.id)).toEqual([id]);
    const again = new FrameAdmission(new FrameBook(500), drawn, () => {});
    expect(await again.undrawn(s.undrawn)).toBe(id);
    expect(s.draws).toBe(1);
  });

  test('a drawing that fails is said, names no frame, and is forgotten: the next look draws again', async () => {
    const drawn: DrawnFrames = new Map();
    const problems: string[] = [];
    const broken: UndrawnScreen = { key: 'b', draw: () => Promise.reject(new Error('renderer gone')) };
    const admission = new FrameAdmission(new FrameBook(500), drawn, (m) => problems.push(m));
    expect(await admission.undrawn(broken)).toBeUndefined();
    await settled();
    expect(problems).toEqual(['a frame could not be read: renderer gone']);
    expect(drawn.has('b')).toBe(false);
    const s = screen('b', jpegOf(1, 2, 3));
    s.release();
    expect(await admission.undrawn(s.undrawn)).toMatch(/^fr_/);
    expect(s.draws).toBe(1);
  });
});
