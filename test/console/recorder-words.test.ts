// The recorder in the console (issue 33): a press on the live view becomes the gesture the
// contract names (a click taps, a click held 600 ms long-presses, a drag swipes), in device
// pixels; and a recorded step reads in words in the step list.
import { describe, expect, test } from 'vitest';
import { devicePoint, gestureOf } from '../../web/src/pages/devices/cloud/gesture.js';
import { matchWords, selectorWords, type StepShape, stepWords } from '../../web/src/pages/devices/cloud/recorder-words.js';

const SCREEN = { width: 1080, height: 2400 };

describe('gestures on the live view', () => {
  test('a place on the picture shown 240 px wide is mapped to device pixels and kept inside the screen', () => {
    const box = { left: 100, top: 50, width: 240, height: 533.33 };
    expect(devicePoint({ x: 220, y: 316.67 }, box, SCREEN)).toEqual({ x: 540, y: 1200 });
    expect(devicePoint({ x: 400, y: 700 }, box, SCREEN)).toEqual({ x: 1079, y: 2399 });
    expect(devicePoint({ x: 90, y: 40 }, box, SCREEN)).toEqual({ x: 0, y: 0 });
  });

  test('a short press taps where it went down, even when the hand shook a little', () => {
    expect(gestureOf({ x: 540, y: 1200 }, { x: 560, y: 1210 }, 120, SCREEN)).toEqual({ type: 'tap', x: 540, y: 1200 });
  });

  test('a press held 600 ms or more long-presses for as long as it was held', () => {
    expect(gestureOf({ x: 540, y: 1200 }, { x: 541, y: 1200 }, 599, SCREEN).type).toBe('tap');
    expect(gestureOf({ x: 540, y: 1200 }, { x: 541, y: 1200 }, 812.4, SCREEN)).toEqual({ type: 'long_press', x: 540, y: 1200, ms: 812 });
  });

  test('a press that moved swipes from where it went down to where it came up, however long it was held', () => {
    expect(gestureOf({ x: 540, y: 1800 }, { x: 540, y: 600 }, 420, SCREEN)).toEqual({ type: 'swipe', from: { x: 540, y: 1800 }, to: { x: 540, y: 600 }, ms: 420 });
    expect(gestureOf({ x: 540, y: 1800 }, { x: 540, y: 600 }, 20, SCREEN)).toMatchObject({ type: 'swipe', ms: 100 });
    expect(gestureOf({ x: 540, y: 1800 }, { x: 540, y: 600 }, 9000, SCREEN)).toMatchObject({ type: 'swipe', ms: 3000 });
  });
});

const step = (over: Partial<StepShape>): StepShape => ({ seq: 1, action: 'tap', selector: null, ...over });

describe('steps in words', () => {
  test('each action says what it does and on what', () => {
    expect(stepWords(step({ selector: { text: 'Checkout' } }))).toBe('Tap text “Checkout”');
    expect(stepWords(step({ selector: { resource_id: 'com.example.shop:id/row', index: 1 } }))).toBe('Tap resource id “com.example.shop:id/row”, match 2');
    expect(stepWords(step({ selector: null, x: 540, y: 1000 }))).toBe('Tap the point 540, 1000');
    expect(stepWords(step({ action: 'long_press', selector: { desc: 'Corner Shop' }, ms: 800 }))).toBe('Long-press description “Corner Shop” for 800 ms');
    expect(stepWords(step({ action: 'swipe', from: { x: 540, y: 1800 }, to: { x: 540, y: 600 }, ms: 300 }))).toBe('Swipe from 540, 1800 to 540, 600 in 300 ms');
    expect(stepWords(step({ action: 'type', text: 'Ada', selector: { resource_id: 'full_name' } }))).toBe('Type “Ada” into resource id “full_name”');
    expect(stepWords(step({ action: 'key', key: 'ENTER' }))).toBe('Press ENTER');
    expect(stepWords(step({ action: 'wait_for', selector: { image_id: 'img_0123456789abcdef' } }))).toBe('Wait for picture img_0123456789abcdef');
  });

  test('a selector with keys the recorder does not pick still reads, the index last', () => {
    expect(selectorWords({ index: 0, class_name: 'android.widget.Button', clickable: true })).toBe('class android.widget.Button, clickable=true, match 1');
    expect(selectorWords({ x: 10, y: 20 })).toBe('the point 10, 20');
    expect(selectorWords(null)).toBe('the point touched');
  });

  test('match counts', () => {
    expect([0, 1, 3].map(matchWords)).toEqual(['no match now', '1 match now', '3 matches now']);
  });
});
