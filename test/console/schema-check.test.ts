// The console checks a block program in the browser with its own small interpreter of the
// published schema (Ajv cannot run under the console's CSP). This keeps it in step with the
// service's check: on the same programs, both find a fault at the same paths, or none.
import { expect, test } from 'vitest';
import { blockProgramSchema } from '../../src/modules/runs/blocks/program-schema.js';
import { validateBlockProgram } from '../../src/modules/runs/index.js';
import { checkAgainstSchema, type Schema } from '../../web/src/lib/schema-check.js';

const schema = JSON.parse(JSON.stringify(blockProgramSchema())) as Schema;
const paths = (errors: { path: string }[]) => [...new Set(errors.map((e) => e.path))].sort();

const programs: [string, unknown][] = [
  ['empty steps', { version: 1, steps: [] }],
  ['every kind of step', { version: 1, steps: [
    { type: 'open_app', package: 'com.example.mail' }, { type: 'wait', ms: 2000 }, { type: 'tap', text: 'Inbox' }, { type: 'tap', x: 10, y: 20 },
    { type: 'tap', image_id: 'img_0123456789abcdef', threshold: 0.8 }, { type: 'swipe', from: { x: 1, y: 2 }, to: { x: 3, y: 4 } }, { type: 'type', text: 'hi' },
    { type: 'wait_for_text', text: 'Done', timeout_ms: 5000 }, { type: 'close_app', package: 'com.example.mail' }, { type: 'log', message: 'ok' },
    { type: 'if_text', text: 'Sign in', then: [{ type: 'tap', text: 'Sign in' }], else: [{ type: 'log', message: 'signed in' }] },
    { type: 'repeat', times: 3, steps: [{ type: 'key', key: 'BACK' }] },
  ] }],
  ['no version', { steps: [] }],
  ['wrong version', { version: 2, steps: [] }],
  ['an extra field', { version: 1, steps: [], name: 'x' }],
  ['an unknown step type', { version: 1, steps: [{ type: 'fly' }] }],
  ['a step without a type', { version: 1, steps: [{ package: 'com.example.mail' }] }],
  ['a missing field', { version: 1, steps: [{ type: 'open_app' }] }],
  ['a bad package', { version: 1, steps: [{ type: 'open_app', package: 'mail' }] }],
  ['a wait too long', { version: 1, steps: [{ type: 'wait', ms: 600_001 }] }],
  ['a tap with two targets', { version: 1, steps: [{ type: 'tap', text: 'a', x: 1, y: 2 }] }],
  ['a tap with none', { version: 1, steps: [{ type: 'tap' }] }],
  ['a threshold without an image', { version: 1, steps: [{ type: 'tap', text: 'a', threshold: 0.5 }] }],
  ['a nested mistake', { version: 1, steps: [{ type: 'repeat', times: 0, steps: [{ type: 'type', text: '' }] }] }],
  ['the locator steps and interrupts (§16)', { version: 1, interrupts: [{ when: { text: 'Not now' }, do: { type: 'tap' } }, { when: { desc: 'Close' }, do: { type: 'key', key: 'BACK' } }], steps: [
    { type: 'tap', selector: { text: 'Sign in', clickable: true }, timeout_ms: 5000 }, { type: 'long_press', selector: { resource_id: 'row', index: 1 } }, { type: 'long_press', x: 1, y: 2, ms: 900 },
    { type: 'type', text: 'pw', selector: { resource_id: 'password' }, clear: true, submit: true, secret: true }, { type: 'wait_for', selector: { text_contains: 'Done' } },
    { type: 'wait_gone', selector: { resource_id: 'android:id/progress' }, timeout_ms: 0 }, { type: 'scroll_to', selector: { text: 'Post 80' }, max_swipes: 30, direction: 'down' },
    { type: 'if_exists', selector: { text: 'Save' }, then: [{ type: 'tap', selector: { text: 'Save' } }] },
  ] }],
  ['an empty selector', { version: 1, steps: [{ type: 'wait_for', selector: {} }] }],
  ['an unknown selector key', { version: 1, steps: [{ type: 'tap', selector: { colour: 'red' } }] }],
  ['a tap with a selector and a point', { version: 1, steps: [{ type: 'tap', selector: { text: 'a' }, x: 1, y: 2 }] }],
  ['a timeout without a selector', { version: 1, steps: [{ type: 'tap', text: 'a', timeout_ms: 10 }] }],
  ['a long press with no target', { version: 1, steps: [{ type: 'long_press', ms: 10 }] }],
  ['a bad scroll direction', { version: 1, steps: [{ type: 'scroll_to', selector: { text: 'a' }, direction: 'sideways' }] }],
  ['an interrupt doing a wait', { version: 1, steps: [], interrupts: [{ when: { text: 'a' }, do: { type: 'wait', ms: 1 } }] }],
  ['the old array form', [{ block: 'open_app', package: 'com.example.mail' }]],
];

test.each(programs)('%s: the console and the service agree', (_name, program) => {
  const service = validateBlockProgram(program, 'blocks');
  const inBrowser = checkAgainstSchema(schema, program, 'blocks');
  expect(inBrowser.length === 0).toBe(service.length === 0);
  // The service adds what a schema cannot say (Android key names); the paths it shares with
  // the schema are the console's too.
  expect(paths(inBrowser)).toEqual(paths(service));
});
