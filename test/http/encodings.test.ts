// What a body may be: JSON in UTF-8, not compressed; no invalid UTF-8, lone surrogates, NUL
// characters, non-finite numbers or prototype keys anywhere. Query strings and path
// parameters may not hold NUL either. Each refusal names what was refused and stores nothing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gzipSync } from 'node:zlib';
import { Type } from 'typebox';
import { publicRoute } from '../../src/http/route-auth.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signUp, type SignedUpUser } from '../helpers/users.js';

let t: TestApp;
let user: SignedUpUser;
let blockMacroId: number;
beforeAll(async () => {
  t = await createTestApp({
    // Free text in a path parameter and a query value, as later routes will take.
    extend: (app) =>
      void app.get(
        '/api/test/echo/:text',
        { config: publicRoute(), schema: { hide: true, params: Type.Object({ text: Type.String() }), querystring: Type.Object({ q: Type.Optional(Type.String()) }) } },
        async (request) => ({ text: (request.params as { text: string }).text, q: (request.query as { q?: string }).q }),
      ),
  });
  user = await signUp(t.app);
  blockMacroId = (await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Blocks', kind: 'block' } })).json().id;
});
afterAll(() => t.close());

const macroCount = async () => (await t.db.kysely.selectFrom('macros').select('id').where('user_id', '=', user.id).execute()).length;

/** Sends `payload` (raw) to POST /api/macros and checks that no macro was stored. */
async function createMacro(payload: string | Buffer, headers: Record<string, string> = {}) {
  const before = await macroCount();
  const res = await t.app.inject({ method: 'POST', url: '/api/macros', headers: { ...user.auth, 'content-type': 'application/json', ...headers }, payload });
  if (res.statusCode !== 201) expect(await macroCount()).toBe(before);
  return res;
}

const VALID = '{"name":"Fine","kind":"block"}';

describe('transfer and character encodings', () => {
  test.each(['gzip', 'deflate', 'br', 'x-custom', 'gzip, identity'])('Content-Encoding: %s answers 415 unsupported_media_type', async (encoding) => {
    const res = await createMacro(gzipSync(VALID), { 'content-encoding': encoding });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: expect.stringContaining('Content-Encoding'), details: { code: 'unsupported_media_type' } });
  });

  test('Content-Encoding: identity is accepted', async () => {
    expect((await createMacro(VALID, { 'content-encoding': 'identity' })).statusCode).toBe(201);
  });

  test.each(['latin1', 'ISO-8859-1', 'utf-16', 'windows-1252'])('charset=%s answers 415', async (charset) => {
    const res = await createMacro(Buffer.from('{"name":"Caf\u00e9","kind":"block"}', 'latin1'), { 'content-type': `application/json; charset=${charset}` });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: expect.stringContaining('UTF-8'), details: { code: 'unsupported_media_type' } });
  });

  test.each(['utf-8', 'UTF-8', '"utf-8"', 'utf8'])('charset=%s is accepted', async (charset) => {
    const res = await createMacro(Buffer.from('{"name":"Caf\u00e9","kind":"block"}', 'utf8'), { 'content-type': `application/json; charset=${charset}` });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('Caf\u00e9');
  });

  test('bytes that are not UTF-8 answer 400 bad_request', async () => {
    for (const bytes of [Buffer.from('{"name":"Caf\u00e9","kind":"block"}', 'latin1'), Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","kind":"block"}')])]) {
      const res = await createMacro(bytes);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: expect.stringContaining('UTF-8'), details: { code: 'bad_request' } });
    }
  });
});

describe('text in a body', () => {
  test.each([
    ['a lone high surrogate in a value', '{"name":"a\\ud800b","kind":"block"}', 'body.name'],
    ['a lone low surrogate in a value', '{"name":"\\udc00","kind":"block"}', 'body.name'],
    ['a lone surrogate in a key', '{"name":"x","kind":"block","blocks":{"steps":[{"\\ud83d":1}]}}', 'body.blocks.steps.0'],
    ['a NUL in a value', '{"name":"a\\u0000b","kind":"block"}', 'body.name'],
    ['a NUL in a nested key', '{"name":"x","kind":"block","blocks":{"st\\u0000eps":[]}}', 'body.blocks'],
    ['a NUL deep in blocks', '{"name":"x","kind":"block","blocks":[[{"text":"\\u0000"}]]}', 'body.blocks.0.0.text'],
  ])('%s answers 422', async (_name, payload, path) => {
    const res = await createMacro(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toMatchObject({ code: 'validation_failed', errors: [{ path, message: expect.any(String) }] });
  });

  test('a surrogate pair (an emoji) is fine', async () => {
    const res = await createMacro('{"name":"\\ud83d\\ude00 bot","kind":"block"}');
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('\u{1F600} bot');
  });

  test.each(['1e999', '-1e999', '[1, 2e400]', '{"x": {"y": -9e9999}}'])('a number that is not finite (%s) answers 422', async (value) => {
    const res = await createMacro(`{"name":"x","kind":"block","blocks":${value}}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors[0]).toEqual({ path: expect.stringMatching(/^body\.blocks/), message: expect.stringContaining('finite') });
  });

  test.each([
    ['{"name":"x","kind":"block","__proto__":{"admin":true}}', '__proto__'],
    ['{"name":"x","kind":"block","blocks":{"steps":[{"__proto__":{}}]}}', '__proto__'],
    ['{"name":"x","kind":"block","blocks":{"constructor":{"prototype":{"polluted":true}}}}', 'constructor.prototype'],
  ])('%s answers 400 saying which key is reserved', async (payload, keyName) => {
    const res = await createMacro(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: expect.stringContaining(`reserved key ${keyName}`), details: { code: 'bad_request' } });
  });

  test('"constructor" alone is an ordinary key: the parser lets it through, and the program check names it', async () => {
    const res = await createMacro('{"name":"x","kind":"block","blocks":{"version":1,"steps":[],"constructor":"fine"}}');
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors[0].path).toBe('body.blocks.constructor');
  });
});

describe('null blocks', () => {
  test('are refused on create and update, and the macro keeps its program', async () => {
    const res = await createMacro('{"name":"x","kind":"block","blocks":null}');
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors[0].path).toBe('body.blocks');
    const put = await t.app.inject({ method: 'PUT', url: `/api/macros/${blockMacroId}`, headers: user.auth, payload: { blocks: null } });
    expect(put.statusCode).toBe(422);
    expect((await t.app.inject({ url: `/api/macros/${blockMacroId}`, headers: user.auth })).json().blocks).toEqual({ version: 1, steps: [] });
  });

  test.each(['"a string"', '7', 'true'])('a scalar program (%s) is refused too', async (value) => {
    expect((await createMacro(`{"name":"x","kind":"block","blocks":${value}}`)).statusCode).toBe(422);
  });
});

describe('query strings and path parameters', () => {
  test('free text in either is accepted', async () => {
    const res = await t.app.inject({ url: '/api/test/echo/caf%C3%A9?q=%F0%9F%98%80' });
    expect(res.json()).toEqual({ text: 'caf\u00e9', q: '\u{1F600}' });
  });

  test('a NUL in a query value answers 422 naming query.<name>', async () => {
    for (const url of ['/api/macros?name=a%00b', '/api/test/echo/x?q=%00']) {
      const res = await t.app.inject({ url, headers: user.auth });
      expect([url, res.statusCode]).toEqual([url, 422]);
      expect(res.json().details).toMatchObject({ code: 'validation_failed', errors: [{ path: url.includes('name=') ? 'query.name' : 'query.q' }] });
    }
  });

  test('a NUL in a path parameter answers 422 naming path.<name>', async () => {
    const res = await t.app.inject({ url: '/api/test/echo/a%00b' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toMatchObject({ code: 'validation_failed', errors: [{ path: 'path.text', message: expect.stringContaining('NUL') }] });
  });
});
