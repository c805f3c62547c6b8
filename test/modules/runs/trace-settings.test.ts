// The run-trace settings (decisions.md §17): defaults, values, and a bad value stops start-up naming it.
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('run-trace settings', () => {
  test('default: every run traced, 500 frames, 14 days', () => {
    expect(loadConfig({}).runTrace).toEqual({ mode: 'on', maxFrames: 500, days: 14 });
  });

  test('set', () => {
    expect(loadConfig({ RUN_TRACE: 'Failures', RUN_TRACE_MAX_FRAMES: '20', RUN_TRACE_DAYS: '3' }).runTrace).toEqual({ mode: 'failures', maxFrames: 20, days: 3 });
    expect(loadConfig({ RUN_TRACE: 'off' }).runTrace.mode).toBe('off');
  });

  test.each([
    ['RUN_TRACE', 'sometimes', /RUN_TRACE: must be on, failures or off, got "sometimes"/],
    ['RUN_TRACE_MAX_FRAMES', '-1', /RUN_TRACE_MAX_FRAMES: expected a whole number/],
    ['RUN_TRACE_MAX_FRAMES', '100001', /RUN_TRACE_MAX_FRAMES: must be between 0 and 100000/],
    ['RUN_TRACE_DAYS', '0', /RUN_TRACE_DAYS: must be between 1 and 3650/],
  ])('%s=%s is refused', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
