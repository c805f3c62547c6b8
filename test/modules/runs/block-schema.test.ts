// The block program's schema: published as JSON Schema draft 2020-12, and the validation that
// macro create and update will call, with paths and messages a person can act on.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canonicalJson } from '../../../src/modules/runs/blocks/canonical-json.js';
import { blockProgramSchema, STEP_TYPES } from '../../../src/modules/runs/blocks/program-schema.js';
import { countSteps } from '../../../src/modules/runs/blocks/program-types.js';
import { parseBlockProgram, validateBlockProgram } from '../../../src/modules/runs/blocks/validate.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';

/** One valid step of every kind, and every form of tap. */
export const EVERY_STEP = [
  { type: 'tap', x: 540, y: 1200 },
  { type: 'tap', text: 'Sign in' },
  { type: 'tap', element_id: 'checkout' },
  { type: 'tap', image_id: 'img_0123456789abcdef', threshold: 0.8 },
  { type: 'swipe', from: { x: 540, y: 1800 }, to: { x: 540, y: 600 }, ms: 300 },
  { type: 'type', text: 'ada@example.com' },
  { type: 'key', key: 'BACK' },
  { type: 'wait', ms: 600_000 },
  { type: 'wait_for_text', text: 'Order placed', timeout_ms: 5000 },
  { type: 'open_app', package: 'com.example.shop' },
  { type: 'close_app', package: 'com.example.shop' },
  { type: 'if_text', text: 'Sign in', then: [{ type: 'tap', text: 'Sign in' }], else: [] },
  { type: 'if_image', image_id: 'img_0123456789abcdef', then: [] },
  { type: 'repeat', times: 1000, steps: [{ type: 'key', key: 'DEL' }] },
  { type: 'log', message: 'done' },
  { type: 'tap', selector: { text: 'Sign in', clickable: true }, timeout_ms: 5000 },
  { type: 'long_press', selector: { resource_id: 'post_title', index: 2 }, ms: 900 },
  { type: 'long_press', x: 10, y: 20 },
  { type: 'type', text: 'hunter2', selector: { resource_id: 'password' }, clear: true, submit: true, secret: true, timeout_ms: 0 },
  { type: 'wait_for', selector: { text_matches: '^Post \\d+$', index: 0 }, timeout_ms: 600_000 },
  { type: 'wait_gone', selector: { resource_id: 'android:id/progress' } },
  { type: 'scroll_to', selector: { text: 'Post 80' }, max_swipes: 40, direction: 'down' },
  { type: 'if_exists', selector: { desc_contains: 'Close' }, timeout_ms: 0, then: [{ type: 'key', key: 'BACK' }] },
];

const errorsOf = (steps: unknown[]) => validateBlockProgram({ version: 1, steps });

describe('the schema', () => {
  test('is a valid draft 2020-12 schema that names every step kind', () => {
    const ajv = new Ajv2020({ strict: false });
    const schema = blockProgramSchema('https://svc.example');
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://svc.example/schemas/block-program.json' });
    // A plain 2020-12 validator (no discriminator support) agrees with ours on valid and invalid programs.
    const plain = ajv.compile(schema);
    expect(plain({ version: 1, steps: EVERY_STEP })).toBe(true);
    expect(plain({ version: 1, steps: [{ type: 'tap' }] })).toBe(false);
    expect(new Set(EVERY_STEP.map((s) => s.type))).toEqual(new Set(STEP_TYPES));
  });

  describe('published at /schemas/block-program.json', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { BASE_URL: 'https://automation.example.com' } });
    });
    afterAll(() => t.close());

    test('without authentication, as application/schema+json, with $id where it is served', async () => {
      const res = await t.app.inject({ url: '/schemas/block-program.json' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/schema\+json/);
      expect(res.json()).toEqual(blockProgramSchema('https://automation.example.com'));
    });
  });
});

describe('validation', () => {
  test('every step kind, nested, is accepted; [] reads as the empty program', () => {
    expect(errorsOf(EVERY_STEP)).toEqual([]);
    expect(parseBlockProgram([])).toEqual({ version: 1, steps: [] });
    expect(countSteps(parseBlockProgram({ version: 1, steps: EVERY_STEP }).steps)).toBe(EVERY_STEP.length + 3); // the steps inside if_text, repeat and if_exists
  });

  test('paths point at the mistake, under body.blocks', () => {
    expect(errorsOf([{ type: 'log', message: 'x' }, { type: 'log', message: 'y' }, { type: 'tapp' }])).toEqual([
      { path: 'body.blocks.steps.2.type', message: `must be one of ${STEP_TYPES.join(', ')}` },
    ]);
    expect(errorsOf([{ type: 'repeat', times: 0, steps: [{ type: 'wait', ms: 600_001 }] }])).toEqual([
      { path: 'body.blocks.steps.0.times', message: 'must be >= 1' },
      { path: 'body.blocks.steps.0.steps.0.ms', message: 'must be <= 600000' },
    ]);
    expect(errorsOf([{ type: 'if_text', text: 'a', then: [{ type: 'open_app' }], else: [{ type: 'type', text: 'x', extra: 1 }] }])).toEqual([
      { path: 'body.blocks.steps.0.then.0.package', message: 'is required' },
      { path: 'body.blocks.steps.0.else.0.extra', message: 'is not a field of this step (or of the program)' },
    ]);
    expect(validateBlockProgram({ version: 2, steps: [], more: true })).toEqual([
      { path: 'body.blocks.more', message: 'is not a field of this step (or of the program)' },
      { path: 'body.blocks.version', message: 'must be 1' },
    ]);
    expect(validateBlockProgram({ version: 1, steps: [{ type: 'wait', ms: 1 }] }, 'blocks')).toEqual([]);
    expect(validateBlockProgram({ version: 1, steps: [{ type: 'wait' }] }, 'blocks')).toEqual([{ path: 'blocks.steps.0.ms', message: 'is required' }]);
  });

  test('a tap names exactly one target', () => {
    const message = 'must name exactly one target: x and y, text, element_id, image_id (with an optional threshold), or selector';
    expect(errorsOf([{ type: 'tap' }])).toEqual([{ path: 'body.blocks.steps.0', message }]);
    expect(errorsOf([{ type: 'tap', x: 1, y: 2, text: 'a' }])).toEqual([{ path: 'body.blocks.steps.0', message }]);
    expect(errorsOf([{ type: 'tap', x: 1 }])).toEqual([{ path: 'body.blocks.steps.0', message }]);
    expect(errorsOf([{ type: 'tap', text: 'a', threshold: 0.5 }])).toEqual([{ path: 'body.blocks.steps.0.threshold', message: 'is only for a step with image_id' }]);
  });

  test('a step that is not an object, a step without a type, and other values', () => {
    expect(errorsOf([5])).toEqual([{ path: 'body.blocks.steps.0', message: 'must be object' }]);
    expect(errorsOf([{}])).toEqual([
      { path: 'body.blocks.steps.0.type', message: 'is required' },
      { path: 'body.blocks.steps.0.type', message: `is required: a step is an object with a type (${STEP_TYPES.join(', ')})` },
    ]);
    expect(errorsOf([{ type: 'open_app', package: 'not a package' }])[0].path).toBe('body.blocks.steps.0.package');
    expect(errorsOf([{ type: 'tap', image_id: 'img_XYZ' }])[0].path).toBe('body.blocks.steps.0.image_id');
    expect(validateBlockProgram([{ type: 'log', message: 'x' }])).toEqual([{ path: 'body.blocks', message: expect.stringMatching(/only the empty \[\] is accepted/) }]);
    expect(validateBlockProgram(null)).toEqual([{ path: 'body.blocks', message: 'must be object' }]);
    expect(() => parseBlockProgram({ version: 1 })).toThrow(expect.objectContaining({ status: 422, code: 'validation_failed' }));
  });

  test('key names are Android’s', () => {
    expect(errorsOf([{ type: 'key', key: 'enter' }, { type: 'repeat', times: 2, steps: [{ type: 'key', key: 'KEYCODE_HOME' }, { type: 'key', key: 'FLY' }] }])).toEqual([
      { path: 'body.blocks.steps.1.steps.1.key', message: 'is not an Android key name (for example BACK, HOME, ENTER, APP_SWITCH, DEL); got "FLY"' },
    ]);
  });
});

describe('canonical JSON', () => {
  test('sorted keys at every level, no spaces: key order and spacing do not change it', () => {
    const a = { version: 1, steps: [{ type: 'swipe', to: { y: 2, x: 1 }, from: { x: 3, y: 4 } }] };
    const b = JSON.parse('{ "steps": [ { "from": {"y":4,"x":3}, "type":"swipe", "to":{"x":1,"y":2} } ], "version": 1 }');
    expect(canonicalJson(a)).toBe('{"steps":[{"from":{"x":3,"y":4},"to":{"x":1,"y":2},"type":"swipe"}],"version":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(canonicalJson({ text: 'é"\n', n: 0.5 })).toBe('{"n":0.5,"text":"é\\"\\n"}');
  });
});
