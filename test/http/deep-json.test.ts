// JSON nested deeper than the documented limit (64 levels, the body itself counting as one)
// is refused with 422 before anything is stored, on every route that takes free-form JSON,
// and without recursion: a body nested half a million deep is refused like one nested 65.
import { beforeAll, describe, expect, test } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/lib/json-body.js';
import type { TestApp } from '../helpers/app.js';
import { useAppAndUser } from '../helpers/app-user.js';
import { createKey, type SignedUpUser, withKey } from '../helpers/users.js';

const world = useAppAndUser();
let t: TestApp;
let user: SignedUpUser;
let key: Record<string, string>;
let macroId: number;
let codeMacroId: number;

beforeAll(async () => {
  ({ t, user } = world);
  key = withKey((await createKey(t.app, user)).key);
  macroId = (await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Blocks', kind: 'block', blocks: [] } })).json().id;
  codeMacroId = (await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Code', kind: 'python' } })).json().id;
});

/** `levels` nested arrays: `[[[]]]` is three levels. */
const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/**
 * A block program whose deepest value sits at `blocks` level 63 (64 counting the body): `repeats`
 * nested repeat steps, each an object and its steps array, around one log step.
 */
const deepProgram = (repeats: number) => {
  let step = '{"type":"log","message":"deep"}';
  for (let i = 0; i < repeats; i += 1) step = `{"type":"repeat","times":1,"steps":[${step}]}`;
  return `{"version":1,"steps":[${step}]}`;
};
/** `levels` nested objects, each holding the next under `k`: `{"k":{"k":{}}}` is three levels. */
const objects = (levels: number) => '{"k":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);

async function snapshot() {
  const [macros, profiles, events] = await Promise.all([
    t.db.kysely.selectFrom('macros').selectAll().where('user_id', '=', user.id).orderBy('id').execute(),
    t.db.kysely.selectFrom('macro_setting_profiles').selectAll().orderBy('id').execute(),
    t.db.kysely.selectFrom('events').selectAll().orderBy('id').execute(),
  ]);
  return { macros, profiles, events };
}

interface Case {
  name: string;
  method: 'POST' | 'PUT';
  url: () => string;
  headers: () => Record<string, string>;
  /** The body with `value` (raw JSON) in the free-form field. */
  body: (value: string) => string;
  field: string;
}

const cases: Case[] = [
  { name: 'POST /api/macros (blocks)', method: 'POST', url: () => '/api/macros', headers: () => user.auth, body: (v) => `{"name":"Deep","kind":"block","blocks":${v}}`, field: 'body.blocks' },
  { name: 'PUT /api/macros/{id} (blocks)', method: 'PUT', url: () => `/api/macros/${macroId}`, headers: () => user.auth, body: (v) => `{"blocks":${v}}`, field: 'body.blocks' },
  {
    name: 'POST /api/macro-setting-profiles (args)',
    method: 'POST',
    url: () => '/api/macro-setting-profiles',
    headers: () => key,
    body: (v) => `{"macro_id":${codeMacroId},"name":"Deep","args":{"x":${v}}}`,
    field: 'body.args.x',
  },
  { name: 'POST /api/webhooks/events (data)', method: 'POST', url: () => '/api/webhooks/events', headers: () => user.auth, body: (v) => `{"type":"custom.deep","data":{"x":${v}}}`, field: 'body.data.x' },
];

const send = (c: Case, value: string) =>
  t.app.inject({ method: c.method, url: c.url(), headers: { ...c.headers(), 'content-type': 'application/json' }, payload: c.body(value) });

describe('nesting deeper than the limit', () => {
  test('the limit is 64 levels', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
  });

  for (const c of cases) {
    test(`${c.name}: 10,000 and 4,100 deep answer 422 naming the field, and nothing changes`, async () => {
      const before = await snapshot();
      for (const levels of [10_000, 4_100]) {
        for (const value of [arrays(levels), objects(levels)]) {
          const res = await send(c, value);
          expect(res.statusCode, res.body.slice(0, 300)).toBe(422);
          const body = res.json();
          expect(body.details.code).toBe('validation_failed');
          expect(body.details.errors).toHaveLength(1);
          expect(body.details.errors[0].path.startsWith(`${c.field}.`)).toBe(true);
          expect(body.details.errors[0].message).toMatch(/64 levels/);
          expect(body.message.length).toBeLessThan(1000);
        }
      }
      expect(await snapshot()).toEqual(before);
    });
  }

  test('the error path points at the first container past the limit', async () => {
    const res = await send(cases[0], arrays(100));
    // The body is level 1 and `blocks` level 2, so the 65th level is blocks' 64th array.
    expect(res.json().details.errors[0].path).toBe(`body.blocks${'.0'.repeat(63)}`);
    const objectsRes = await send(cases[0], objects(100));
    expect(objectsRes.json().details.errors[0].path).toBe(`body.blocks${'.k'.repeat(63)}`);
  });

  test('a body nested 500,000 deep (just under 1 MiB) is refused without exhausting the stack', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/macros', headers: { ...user.auth, 'content-type': 'application/json' }, payload: arrays(500_000) });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors[0].path).toBe(`body${'.0'.repeat(64)}`);
  });
});

describe('nesting at the limit', () => {
  test('is stored, and the macro and every list page holding it stay readable', async () => {
    // blocks at level 2 plus 62 levels inside it (2 per repeat, then the log step): 64 in all.
    const res = await send(cases[0], deepProgram(30));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    const { id } = res.json();
    expect((await t.app.inject({ url: `/api/macros/${id}`, headers: user.auth })).statusCode).toBe(200);
    const list = await t.app.inject({ url: '/api/macros?page_size=200', headers: user.auth });
    expect(list.statusCode).toBe(200);
    expect(list.json().rows.map((r: { id: number }) => r.id)).toContain(id);
    const put = await send(cases[1], deepProgram(30));
    expect(put.statusCode, put.body.slice(0, 300)).toBe(200);
    expect((await send(cases[1], deepProgram(31))).statusCode).toBe(422);
    expect((await send(cases[1], objects(64))).statusCode).toBe(422);
  });
});
