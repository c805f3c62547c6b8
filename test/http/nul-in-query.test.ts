// A NUL (`%00`) in the query string of every operation of openapi.json, with the credentials the
// operation takes: the status it gets must be one the operation documents. A route that reads
// query parameters refuses the NUL with 422 (documented there); a route that reads none ignores
// its query string, so the NUL cannot reach anything and the route answers as it would without
// it. Routes added later are walked without writing anything here.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createKey, signIn, type SignedUpUser, signUp } from '../helpers/users.js';
import { listOperations, type OpenApiDocument, type Operation } from '../fuzz/operations.js';

const ADMIN_TOKEN = 'admin-token-for-nul-tests-0123456789';
const doc = JSON.parse(readFileSync('openapi.json', 'utf8')) as OpenApiDocument;
const operations = listOperations(doc);
/** Path values that name nothing (so no route acts on a real row) but pass the parameter's pattern. */
const PATH_VALUES: Record<string, string> = { package: 'com.example.none', execution_id: 'no-such-run' };

let t: TestApp;
let user: SignedUpUser;
let key: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN, RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' } });
  user = await signUp(t.app);
  key = (await createKey(t.app, user)).key;
});
afterAll(() => t?.close());

async function credentials(op: Operation): Promise<Record<string, string>> {
  if (op.auth === 'apiKey') return { 'x-api-key': key };
  if (op.auth === 'admin') return { authorization: `Bearer ${ADMIN_TOKEN}` };
  // Signing out ends the session it is sent with: give it one of its own.
  if (op.auth === 'session') return op.operationId === 'signOut' ? (await signIn(t.app, user)).auth : user.auth;
  return {};
}

const pathOf = (op: Operation) => op.path.replace(/\{(\w+)\}/g, (_m, name: string) => PATH_VALUES[name] ?? '999999');

describe('a NUL in the query string', () => {
  test('answers, on every operation, a status the operation documents', async () => {
    const undocumented: string[] = [];
    for (const op of operations) {
      // The MCP endpoint's GET is an endless event stream: its query handling is the POST's.
      if (op.path === '/mcp' && op.method === 'get') continue;
      for (const query of ['x=%00', 'a%00b=1']) {
        const res = await t.app.inject({ method: op.method.toUpperCase() as 'GET', url: `${pathOf(op)}?${query}`, headers: await credentials(op) });
        expect(res.statusCode, `${op.method} ${op.path}: ${res.body}`).not.toBe(500);
        if (!(String(res.statusCode) in op.responses)) undocumented.push(`${op.method.toUpperCase()} ${op.path}?${query} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(undocumented).toEqual([]);
  }, 120_000);

  test('is refused with 422 naming it on a route that reads its query, and ignored on one that does not', async () => {
    const listed = await t.app.inject({ url: '/api/macros?page=1&x=%00', headers: user.auth });
    expect(listed.statusCode).toBe(422);
    expect(listed.json().details.errors[0]).toEqual({ path: 'query.x', message: expect.stringContaining('NUL') });
    const value = await t.app.inject({ url: '/api/macros?name=a%00b', headers: user.auth });
    expect(value.statusCode).toBe(422);
    for (const url of ['/healthz?x=%00', '/api/auth/me?x=%00']) {
      const res = await t.app.inject({ url, headers: user.auth });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
  });
});
