// The fuzz test's own checks must be able to fail: a change of state is seen, a status or
// body the document does not allow is named, raw JSON tokens are written as given, and the
// known-defect list explains only what it names.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signUp } from '../helpers/users.js';
import { type Failure, KNOWN_DEFECTS, nestingDepth } from './known-defects.js';
import { serialise } from './mutations.js';
import { listOperations, type OpenApiDocument } from './operations.js';
import { ResponseChecker } from './response-check.js';
import { type GenContext, valueFor } from './schema-arbitrary.js';
import { difference, snapshot, tablesOf } from './state-snapshot.js';

const doc = JSON.parse(readFileSync('openapi.json', 'utf8')) as OpenApiDocument;
const operation = (id: string) => {
  const op = listOperations(doc).find((o) => o.operationId === id);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the state snapshot', () => {
  test('sees a row added, changed or removed, and ignores api_keys.last_used_at', async () => {
    const tables = await tablesOf(t.db.kysely, t.db.dialect);
    expect(tables).toContain('macros');
    const before = await snapshot(t.db.kysely, tables);
    const user = await signUp(t.app);
    const after = await snapshot(t.db.kysely, tables);
    expect(difference(before, after).some((line) => line.startsWith('users +'))).toBe(true);
    await t.db.kysely.updateTable('users').set({ name: 'changed' }).where('id', '=', user.id).execute();
    const renamed = await snapshot(t.db.kysely, tables);
    expect(difference(after, renamed).filter((line) => line.startsWith('users'))).toHaveLength(2);
    await t.app.inject({ method: 'POST', url: '/api/api-keys', headers: user.auth, payload: { name: 'k' } });
    const withKey = await snapshot(t.db.kysely, tables);
    await t.db.kysely.updateTable('api_keys').set({ last_used_at: 123 }).execute();
    expect(difference(withKey, await snapshot(t.db.kysely, tables))).toEqual([]);
  });
});

describe('the response check', () => {
  const checker = new ResponseChecker(doc);
  const getMacro = operation('getMacro');

  test('accepts a documented answer', () => {
    const macro = { id: 1, name: 'm', kind: 'python', created_at: '2026-03-02T10:00:00.000Z', updated_at: '2026-03-02T10:00:00.000Z' };
    expect(checker.problem(getMacro, 200, 'application/json; charset=utf-8', JSON.stringify(macro))).toBeUndefined();
    expect(checker.problem(getMacro, 404, 'application/json', JSON.stringify({ message: 'No.', details: { code: 'not_found' } }))).toBeUndefined();
  });

  test('names an undocumented status, a wrong media type and a body that breaks its schema', () => {
    expect(checker.problem(getMacro, 409, 'application/json', '{}')).toMatch(/status 409 is not documented/);
    expect(checker.problem(getMacro, 404, 'text/html', '<p>no</p>')).toMatch(/media type text\/html/);
    expect(checker.problem(getMacro, 400, 'application/json', JSON.stringify({ error: 'Bad Request', statusCode: 400 }))).toMatch(/breaks its schema/);
    expect(checker.problem(getMacro, 200, 'application/json', JSON.stringify({ id: 'one' }))).toMatch(/breaks its schema/);
    expect(checker.problem(operation('deleteMacro'), 204, undefined, 'unexpected')).toMatch(/without a body/);
  });
});

describe('generation', () => {
  test('raw tokens are written into the JSON as given', () => {
    expect(serialise({ blocks: '\u0001raw:1e999', deep: '\u0001raw:[[]]', text: 'plain' })).toBe('{"blocks":1e999,"deep":[[]],"text":"plain"}');
    expect(nestingDepth('{"a":"[[[[","b":[[{}]]}')).toBe(4);
  });

  test('valid values satisfy the schema they come from', () => {
    const ctx: GenContext = { resolve: (ref) => doc.components.schemas[ref.split('/').pop() ?? ''] ?? {}, idsFor: () => undefined, special: () => undefined };
    const body = operation('createDeviceGroup').body ?? {};
    fc.assert(
      fc.property(valueFor(body, ctx), (value) => {
        const v = value as { name: string; kind: string };
        expect(v.name.length).toBeGreaterThan(0);
        expect(['byod', 'cloud']).toContain(v.kind);
      }),
      { numRuns: 50, seed: 1 },
    );
  });
});

describe('the known-defect list', () => {
  const failure = (over: Partial<Failure>): Failure => ({
    op: operation('getMacro'),
    request: { mutation: 'valid', params: {}, query: [] },
    url: '/api/macros/1',
    bodyText: undefined,
    status: 500,
    responseBody: '{}',
    engine: 'sqlite',
    kind: 'server error',
    detail: '',
    ...over,
  });
  const explained = (f: Failure) => KNOWN_DEFECTS.some((d) => d.explains(f));

  test('explains nothing it does not name', () => {
    expect(explained(failure({}))).toBe(false);
    expect(explained(failure({ kind: 'state' }))).toBe(false);
    expect(explained(failure({ kind: 'document', status: 400, responseBody: '{"message":"x"}' }))).toBe(false);
    expect(explained(failure({ url: '/api/macros?name=%00' }))).toBe(false);
  });
});
