// Idempotent requests (decisions.md §19) on a key route with POST, on whichever engine the
// suite runs: a replay answers the kept success and starts nothing twice; reuse is 422; a
// request while the first is in flight is 409 with Retry-After; keys are per account; refusals
// and failures are not kept; a dead claim lapses after 60 s; the body is compared as JSON.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { requestFingerprint } from '../../src/http/idempotency.js';
import { createTestApp, type TestApp, type TestStorage } from '../helpers/app.js';
import { createCloudDevice } from '../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../helpers/users.js';

let t: TestApp & { storage: TestStorage };
let user: SignedUpUser;
let key: string;
let device: number;
let macro: number;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000' } });
  user = await signUp(t.app);
  key = (await createKey(t.app, user, { scopes: ['macros:run', 'runs:read'] })).key;
  device = (await createCloudDevice(t.app, user, { name: 'Phone' })).id as number;
  const res = await t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name: 'Quick', kind: 'block', blocks: { version: 1, steps: [{ type: 'wait', ms: 600000 }] } } });
  macro = res.json().id;
});
afterAll(() => t?.close());

let counter = 0;
const freshKey = () => `test-key-${(counter += 1)}`;
const runsOf = async (deviceId: number) => (await t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', deviceId).execute()).length;
const start = (idem: string | undefined, body: string | object = { macro_id: macro }, headers: Record<string, string> = withKey(key), deviceId = device) =>
  t.app.inject({
    method: 'POST',
    url: `/api/hosted/devices/${deviceId}/run`,
    headers: { ...headers, 'content-type': 'application/json', ...(idem === undefined ? {} : { 'idempotency-key': idem }) },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
describe('Idempotency-Key on POST /api/hosted/devices/{id}/run', () => {
  test('a replay answers the kept status and body with Idempotent-Replayed, and starts no second run', async () => {
    const idem = freshKey();
    const first = await start(idem);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await start(idem);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/application\/json/);
    // It still passed the key gate: the rate-limit headers are there.
    expect(again.headers['x-ratelimit-limit']).toBeDefined();
    expect(await runsOf(device)).toBe(1);
  });

  test('key order and spacing of the body do not matter; the session shares the account\'s keys', async () => {
    const deviceId = (await createCloudDevice(t.app, user, { name: 'Spacing' })).id as number;
    const idem = freshKey();
    const first = await start(idem, `{"macro_id":${macro},"args":{"a":1,"b":[1,2]}}`, withKey(key), deviceId);
    expect(first.statusCode, first.body).toBe(201);
    const spaced = await start(idem, `{ "args" : { "b" : [ 1, 2 ], "a" : 1 },\n  "macro_id" : ${macro} }`, user.auth, deviceId);
    expect(spaced.statusCode, spaced.body).toBe(201);
    expect(spaced.headers['idempotent-replayed']).toBe('true');
    expect(spaced.body).toBe(first.body);
    expect(await runsOf(deviceId)).toBe(1);
  });

  test('the same key with another body or path answers 422 idempotency_key_reused, doing nothing', async () => {
    const idem = freshKey();
    const deviceId = (await createCloudDevice(t.app, user, { name: 'Reuse' })).id as number;
    expect((await start(idem, { macro_id: macro }, withKey(key), deviceId)).statusCode).toBe(201);
    const otherBody = await start(idem, { macro_id: macro, args: { x: 1 } }, withKey(key), deviceId);
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json().details.code).toBe('idempotency_key_reused');
    const otherDevice = (await createCloudDevice(t.app, user, { name: 'Other path' })).id as number;
    const otherPath = await start(idem, { macro_id: macro }, withKey(key), otherDevice);
    expect(otherPath.statusCode).toBe(422);
    expect(otherPath.json().details.code).toBe('idempotency_key_reused');
    expect(await runsOf(otherDevice)).toBe(0);
  });

  test('another account\'s same key is independent', async () => {
    const idem = freshKey();
    const mine = (await createCloudDevice(t.app, user, { name: 'Mine' })).id as number;
    expect((await start(idem, { macro_id: macro }, withKey(key), mine)).statusCode).toBe(201);
    const other = await signUp(t.app);
    const otherKey = (await createKey(t.app, other, { scopes: ['macros:run'] })).key;
    const otherDevice = (await createCloudDevice(t.app, other, { name: 'Theirs' })).id as number;
    const otherMacro = (await t.app.inject({ method: 'POST', url: '/api/macros', headers: other.auth, payload: { name: 'Theirs', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'x' }] } } })).json().id;
    const theirs = await start(idem, { macro_id: otherMacro }, withKey(otherKey), otherDevice);
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await runsOf(otherDevice)).toBe(1);
  });

  test('while another request holds the key: 409 idempotency_key_in_use with Retry-After: 1; a claim whose process died lapses after 60 s', async () => {
    const idem = freshKey();
    const deviceId = (await createCloudDevice(t.app, user, { name: 'In use' })).id as number;
    // The same request, claimed by a process that then died (never kept, never released).
    const taken = await t.app.modules.idempotency.services.requests.begin(user.id, idem, requestFingerprint('POST', `/api/hosted/devices/${deviceId}/run`, { macro_id: macro }));
    expect(taken.kind).toBe('claimed');
    const busy = await start(idem, { macro_id: macro }, withKey(key), deviceId);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().details.code).toBe('idempotency_key_in_use');
    expect(busy.headers['retry-after']).toBe('1');
    expect(await runsOf(deviceId)).toBe(0);
    t.clock.advance(59_999);
    expect((await start(idem, { macro_id: macro }, withKey(key), deviceId)).json().details.code).toBe('idempotency_key_in_use');
    t.clock.advance(1);
    const afterLapse = await start(idem, { macro_id: macro }, withKey(key), deviceId);
    expect(afterLapse.statusCode, afterLapse.body).toBe(201);
    expect(afterLapse.headers['idempotent-replayed']).toBeUndefined();
    expect(await runsOf(deviceId)).toBe(1);
    // The dead process's late write cannot overwrite the live answer.
    if (taken.kind === 'claimed') expect(await t.app.modules.idempotency.services.requests.keep(taken.claim, { status: 200, contentType: null, body: 'stale' })).toBe(false);
    expect((await start(idem, { macro_id: macro }, withKey(key), deviceId)).body).toBe(afterLapse.body);
  });

  test('two at once with one key: one processed, the other 409 or the replay; one run', async () => {
    const deviceId = (await createCloudDevice(t.app, user, { name: 'Twins' })).id as number;
    const idem = freshKey();
    const answers = await Promise.all([start(idem, { macro_id: macro }, withKey(key), deviceId), start(idem, { macro_id: macro }, withKey(key), deviceId)]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect([[201, 201], [201, 409]]).toContainEqual(statuses);
    expect(await runsOf(deviceId)).toBe(1);
  });

  test('a refusal or failure is not kept: after a 404 the retry is processed afresh, with any body', async () => {
    const idem = freshKey();
    const deviceId = (await createCloudDevice(t.app, user, { name: 'After 404' })).id as number;
    const missing = await start(idem, { macro_id: 999999 }, withKey(key), deviceId);
    expect(missing.statusCode).toBe(404);
    expect(await t.db.kysely.selectFrom('idempotency_keys').select('key_hash').where('fingerprint', '=', requestFingerprint('POST', `/api/hosted/devices/${deviceId}/run`, { macro_id: 999999 })).execute()).toEqual([]);
    const retried = await start(idem, { macro_id: macro }, withKey(key), deviceId);
    expect(retried.statusCode, retried.body).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  test('not kept on 401 and 403: nothing stored, the key free', async () => {
    const idem = freshKey();
    const before = await t.db.kysely.selectFrom('idempotency_keys').select('key_hash').execute();
    expect((await start(idem, { macro_id: macro }, withKey(`svc_${'0'.repeat(48)}`))).statusCode).toBe(401);
    const readOnly = (await createKey(t.app, user, { scopes: ['runs:read'] })).key;
    expect((await start(idem, { macro_id: macro }, withKey(readOnly))).statusCode).toBe(403);
    expect(await t.db.kysely.selectFrom('idempotency_keys').select('key_hash').execute()).toHaveLength(before.length);
  });

  test('a header that is empty, too long or not printable ASCII answers 422 validation_failed naming it', async () => {
    for (const bad of ['', 'x'.repeat(256), 'caf\u00e9', 'tab\there']) {
      const res = await start(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(res.json().details.code).toBe('validation_failed');
      expect(res.json().details.errors[0].path).toBe('header.Idempotency-Key');
    }
    const longest = await start('k'.repeat(255), { macro_id: 999999 });
    expect(longest.statusCode).toBe(404);
  });
});

describe('not kept on 429', () => {
  test('a rate-limited request stores nothing; once the window turns, the same key is processed', async () => {
    const small = await createTestApp({ env: { RATE_LIMIT_PER_KEY: '1', RATE_LIMIT_PER_ACCOUNT: '100000' } });
    try {
      const owner = await signUp(small.app);
      const k = (await createKey(small.app, owner)).key;
      const profile = (name: string) => small.app.inject({ method: 'POST', url: '/api/macro-setting-profiles', headers: { ...withKey(k), 'idempotency-key': 'same' }, payload: { name } });
      expect((await small.app.inject({ method: 'GET', url: '/api/whoami', headers: withKey(k) })).statusCode).toBe(200);
      const limited = await profile('Fast');
      expect(limited.statusCode).toBe(429);
      expect(await small.db.kysely.selectFrom('idempotency_keys').select('key_hash').execute()).toEqual([]);
    } finally {
      await small.close();
    }
  });
});
