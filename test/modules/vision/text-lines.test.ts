// The UI tree read as text lines (device_read_text without OCR): a pure function of the
// element list both hosts answer.
import { describe, expect, it } from 'vitest';
import { DEMO_APP_PACKAGE, renderSimScreen } from '../../../src/modules/devices/index.js';
import { textLinesFromTree, type TextElement } from '../../../src/modules/vision/index.js';

const el = (element_id: string, text: string, left: number, top: number, right: number, bottom: number, cls = 'android.widget.TextView'): TextElement => ({ element_id, class: cls, text, bounds: { left, top, right, bottom } });

describe('textLinesFromTree', () => {
  it('gives each element with text a line with bounds, centre and element id, in reading order', () => {
    const lines = textLinesFromTree([
      el('value', 'On', 800, 300, 1000, 360),
      el('title', 'Settings', 48, 120, 600, 200),
      el('label', 'Wi-Fi', 48, 290, 400, 370),
      el('panel', '', 0, 0, 1080, 2400, 'android.widget.FrameLayout'),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Settings', 'Wi-Fi', 'On']);
    expect(lines[0]).toEqual({ text: 'Settings', bounds: { left: 48, top: 120, right: 600, bottom: 200 }, center: { x: 324, y: 160 }, source: 'tree', confidence: 1, element_id: 'title' });
  });

  it('splits text at line breaks, collapses whitespace, drops switch states, empty bounds and repeats', () => {
    const lines = textLinesFromTree([
      el('note', 'First  line\n\nsecond\tline ', 48, 400, 1032, 560),
      el('switch', 'ON', 900, 600, 1032, 660, 'android.widget.Switch'),
      el('check', 'Remember me', 48, 700, 600, 760, 'android.widget.CheckBox'),
      el('hidden', 'Nothing', 10, 10, 10, 50),
      el('nested_a', 'Twice', 48, 800, 300, 860),
      el('nested_b', 'Twice', 48, 800, 300, 860),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['First line', 'second line', 'Remember me', 'Twice']);
  });

  it('keeps only the lines whose centre lies in the region', () => {
    const lines = textLinesFromTree([el('a', 'Top', 0, 0, 100, 50), el('b', 'Bottom', 0, 1000, 100, 1050)], { region: { left: 0, top: 900, right: 1080, bottom: 2400 } });
    expect(lines.map((l) => l.text)).toEqual(['Bottom']);
  });

  it('reads a simulated screen: what the tree names, in the order a person reads it', async () => {
    const shot = await renderSimScreen({ package: DEMO_APP_PACKAGE, stack: ['catalog', 'settings'] });
    const texts = textLinesFromTree(shot.elements).map((l) => l.text);
    expect(texts[0]).toBe('Settings');
    expect(texts).toContain('Order updates');
    expect(texts).not.toContain('ON');
    expect(texts).not.toContain('OFF');
  });
});
