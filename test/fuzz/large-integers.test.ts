// Every integer query and path parameter of openapi.json (and every text parameter whose pattern
// takes only digits, such as a cursor) at the numbers where storage types end: 2^31 (past a
// 32-bit column), 2^53 − 1 (the largest a JSON number carries exactly) and the largest value the
// parameter's own schema allows. Each is answered (200, 404, …) or refused with 422 — a status the
// operation documents, never a 500 — on both engines. The rest of each request is a valid one
// from the fuzzer's generators, with the caller's own ids, so the large number reaches the route.
// Parameters added later are swept without writing anything here.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ENGINE } from '../helpers/engine.js';
import { serialise } from './mutations.js';
import { generationContext, listOperations, type OpenApiDocument, type Operation, type Parameter, validRequest } from './operations.js';
import { ADMIN_TOKEN, fuzzResolver, loadPools, seedWorld, type World } from './world.js';

const doc = JSON.parse(readFileSync('openapi.json', 'utf8')) as OpenApiDocument;
const BOUNDARIES = [2 ** 31, Number.MAX_SAFE_INTEGER];

/** The largest run of nines the pattern accepts (up to 40 digits), or null when it takes no digits-only text. */
function largestDigits(pattern: string): string | null {
  const re = new RegExp(pattern);
  if (re.test('a') || re.test('-1')) return null;
  let largest: string | null = null;
  for (let n = 1; n <= 40; n++) if (re.test('9'.repeat(n))) largest = '9'.repeat(n);
  return largest;
}

/** The values to send for a parameter, or none when it is not a number. */
function valuesFor(p: Parameter): string[] {
  const schema = p.schema as { type?: string; maximum?: number; pattern?: string };
  if (schema.type === 'integer') return [...BOUNDARIES, ...(schema.maximum !== undefined ? [schema.maximum] : [])].map(String);
  if (schema.type === 'string' && schema.pattern) {
    const largest = largestDigits(schema.pattern);
    return largest === null ? [] : [...BOUNDARIES.map(String), largest];
  }
  return [];
}

const sweeps = listOperations(doc)
  // The MCP endpoint's GET is an endless event stream.
  .filter((op) => !(op.path === '/mcp' && op.method === 'get'))
  .flatMap((op) => op.parameters.filter((p) => p.in === 'path' || p.in === 'query').flatMap((p) => valuesFor(p).map((value) => ({ op, p, value }))));

let t: TestApp;
let world: World;
/** Own ids for paths the fuzzer's pools do not cover, so a query parameter beside them reaches its query. */
const ownIds: [RegExp, string][] = [];

beforeAll(async () => {
  t = await createTestApp({
    resolver: fuzzResolver,
    env: { ADMIN_TOKEN, RATE_LIMIT_PER_KEY: '1000000', RATE_LIMIT_PER_ACCOUNT: '1000000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', PROXY_CHECK_URL: 'http://127.0.0.1:9/ip', PROXY_CHECK_TIMEOUT_MS: '100', AUTHOR_LLM_URL: 'http://127.0.0.1:9/v1' },
  });
  world = await seedWorld(t);
  const seeded = async (url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers: world.main.auth, payload });
    expect(res.statusCode, res.body).toBe(201);
    return String(res.json().id);
  };
  const macro = await t.db.kysely.selectFrom('macros').select('id').where('user_id', '=', world.main.id).executeTakeFirstOrThrow();
  const macroId = Number(macro.id);
  const cloud = await t.db.kysely.selectFrom('devices').select('id').where('user_id', '=', world.main.id).where('is_hosted', '=', 1).executeTakeFirstOrThrow();
  const deviceId = Number(cloud.id);
  ownIds.push([/^\/api\/authoring\/sessions\/\{id\}/, await seeded('/api/authoring/sessions', { goal: 'a session to read' })]);
  ownIds.push([/^\/api\/schedules\/\{id\}/, await seeded('/api/schedules', { macro_id: macroId, device_id: deviceId, cron: '0 * * * *' })]);
  ownIds.push([/^\/api\/hosted\/devices\/\{id\}/, String(deviceId)]);
}, 120_000);
afterAll(() => t?.close());

function credentials(op: Operation): Record<string, string> {
  if (op.auth === 'apiKey') return { 'x-api-key': world.key.key };
  if (op.auth === 'admin') return { authorization: `Bearer ${ADMIN_TOKEN}` };
  return op.auth === 'session' ? world.main.auth : {};
}

describe(`integer parameters at the ends of storage types (${ENGINE})`, () => {
  test('finds the parameters to sweep (ids, pages, the messages cursor)', () => {
    const swept = new Set(sweeps.map(({ op, p }) => `${op.operationId}.${p.name}`));
    expect(swept).toContain('getMacro.id');
    expect([...swept].some((name) => name.endsWith('.cursor'))).toBe(true);
    expect([...swept].some((name) => name.endsWith('.page'))).toBe(true);
  });

  test('each is answered with a documented status, never a 500', async () => {
    const wrong: string[] = [];
    for (const [index, { op, p, value }] of sweeps.entries()) {
      const pools = await loadPools(t.db.kysely, world);
      const ctx = generationContext(doc, pools, [world.main.email, world.other.email]);
      const [request] = fc.sample(validRequest(op, ctx, pools), { numRuns: 1, seed: index });
      const own = ownIds.find(([re]) => re.test(op.path))?.[1];
      const params: Record<string, string> = { ...request!.params, ...(own ? { id: own } : {}), ...(p.in === 'path' ? { [p.name]: value } : {}) };
      const query = [...request!.query.filter(([name]) => name !== p.name).map(([name, v]) => `${name}=${'encoded' in v ? v.encoded : encodeURIComponent(v.text)}`), ...(p.in === 'query' ? [`${p.name}=${value}`] : [])];
      const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? '1');
      const url = query.length > 0 ? `${path}?${query.join('&')}` : path;
      const body = request!.body && 'json' in request!.body ? serialise(request!.body.json) : undefined;
      const res = await t.app.inject({
        method: op.method.toUpperCase() as 'GET',
        url,
        headers: { ...credentials(op), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { payload: body } : {}),
      });
      if (res.statusCode === 500 || !(String(res.statusCode) in op.responses)) wrong.push(`${op.method.toUpperCase()} ${url} → ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  test("a messages cursor past any message's number reads nothing and hands the cursor back", async () => {
    const session = ownIds.find(([re]) => re.test('/api/authoring/sessions/{id}'))![1];
    for (const cursor of ['2147483647', '2147483648', '999999999999']) {
      const res = await t.app.inject({ url: `/api/authoring/sessions/${session}/messages?cursor=${cursor}`, headers: world.main.auth });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ messages: [], cursor });
    }
  });
});
