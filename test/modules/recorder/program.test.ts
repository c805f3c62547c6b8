// What a recording becomes when saved (src/modules/recorder/program.ts), as pure functions of
// the steps: a dialog's button becomes an interrupt unless it is the last step; drags that lead
// to an element become scroll_to it; other drags stay; the Python reads the same.
import { describe, expect, test } from 'vitest';
import { blockProgramOf, pythonSourceOf } from '../../../src/modules/recorder/program.js';
import { validateBlockProgram } from '../../../src/modules/runs/index.js';

type Step = Parameters<typeof blockProgramOf>[0][number];
let seq = 0;
const base = { fragile: false, candidates: [] as Step['candidates'], chosen: 0 };
const tap = (selector: Step['selector'], extra: Partial<Step> = {}): Step => ({ ...base, seq: ++seq, action: 'tap', selector, x: 1, y: 2, ...extra });
const swipe = (fromY: number, toY: number): Step => ({ ...base, seq: ++seq, action: 'swipe', selector: null, chosen: -1, from: { x: 540, y: fromY }, to: { x: 540, y: toY }, ms: 400 });
const notNow = () => tap({ resource_id: 'android:id/button2' }, { interrupt: true, element: { text: 'Not now', resource_id: 'android:id/button2', desc: '', class: 'android.widget.Button', bounds: { left: 0, top: 0, right: 10, bottom: 10 } } });

describe('saving a recording', () => {
  test('swipes that lead to an element become scroll_to it, with room to spare', () => {
    const program = blockProgramOf([tap({ text: 'Open' }), swipe(1900, 650), swipe(1900, 650), tap({ text: 'Post 80' })]);
    expect(program.steps).toEqual([
      { type: 'tap', selector: { text: 'Open' } },
      { type: 'scroll_to', selector: { text: 'Post 80' }, max_swipes: 10, direction: 'down' },
      { type: 'tap', selector: { text: 'Post 80' } },
    ]);
    expect((blockProgramOf([swipe(650, 1900), ...Array.from({ length: 9 }, () => swipe(650, 1900)), tap({ text: 'Top' })]).steps as unknown[])[0]).toEqual({ type: 'scroll_to', selector: { text: 'Top' }, max_swipes: 25, direction: 'up' });
    expect(validateBlockProgram(program)).toEqual([]);
  });

  test('swipes stay swipes when no element step follows, or it names its element by index, an image or coordinates', () => {
    for (const next of [[], [tap({ resource_id: 'row', index: 3 })], [tap({ image_id: 'img_0123456789abcdef' })], [tap(null)]]) {
      const program = blockProgramOf([swipe(1900, 650), ...next]);
      expect((program.steps as unknown[])[0]).toEqual({ type: 'swipe', from: { x: 540, y: 1900 }, to: { x: 540, y: 650 }, ms: 400 });
    }
    // Overshot and dragged back: the content went down overall, so scroll_to goes down.
    const mixed = blockProgramOf([swipe(1900, 650), swipe(1900, 650), swipe(650, 1200), tap({ text: 'X' })]).steps;
    expect(mixed).toEqual([{ type: 'scroll_to', selector: { text: 'X' }, max_swipes: 11, direction: 'down' }, { type: 'tap', selector: { text: 'X' } }]);
  });

  test("a dialog's button becomes an interrupt named by its text, once, unless it is the last step", () => {
    const program = blockProgramOf([tap({ text: 'Open' }), notNow(), tap({ text: 'Next' }), notNow(), tap({ text: 'End' })]);
    expect(program.interrupts).toEqual([{ when: { text: 'Not now' }, do: { type: 'tap' } }]);
    expect((program.steps as unknown[]).length).toBe(3);
    expect(validateBlockProgram(program)).toEqual([]);
    const last = blockProgramOf([tap({ text: 'Open' }), notNow()]);
    expect(last.interrupts).toBeUndefined();
    expect(last.steps).toEqual([{ type: 'tap', selector: { text: 'Open' } }, { type: 'tap', selector: { resource_id: 'android:id/button2' } }]);
  });

  test('the Python says the same: when() first, locate() for selectors, booleans and strings as Python reads them', () => {
    const source = pythonSourceOf([notNow(), tap({ text: 'Say "hi"\\n', clickable: true }), swipe(1900, 650), tap({ desc: 'Post' }), tap(null, { x: 5, y: 6 })], 'Title');
    expect(source).toContain('device.when(text="Not now").tap()\n');
    expect(source).toContain('device.locate(text="Say \\"hi\\"\\\\n", clickable=True).tap()\n');
    expect(source).toContain('device.locate(desc="Post").scroll_to(max_swipes=10)\ndevice.locate(desc="Post").tap()\n');
    expect(source).toContain('device.tap(5, 6)  # fragile');
  });
});
