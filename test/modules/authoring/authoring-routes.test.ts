// The authoring routes without the agent at work (no workers run here): 503 without a model
// endpoint, the start checks in order, other people's ids, keys refused, the cursor, answer
// and stop, and the credit routes (GET /api/billing/credits, the operator's allowance).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createDevice, createMacro } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { ADMIN_TOKEN, type AuthoringWorld, authoringWorld, closeAuthoringWorld, cloudDevice, credits, setCreditLimit, startSession } from './helpers/authoring-world.js';

const ROUTES = [
  { method: 'POST', url: '/api/authoring/sessions', payload: { goal: 'x' } },
  { method: 'GET', url: '/api/authoring/sessions' },
  { method: 'GET', url: '/api/authoring/sessions/1' },
  { method: 'GET', url: '/api/authoring/sessions/1/messages' },
  { method: 'POST', url: '/api/authoring/sessions/1/answer', payload: { answer: 'y' } },
  { method: 'POST', url: '/api/authoring/sessions/1/stop' },
] as const;

describe('without AUTHOR_LLM_URL', () => {
  let t: TestApp;
  let user: SignedUpUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signUp(t.app);
  });
  afterAll(async () => t.close());

  test('every authoring route answers 503 authoring_unavailable, saying how to configure it; nothing is created', async () => {
    for (const route of ROUTES) {
      const res = await t.app.inject({ ...route, headers: user.auth });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(503);
      expect(res.json().details.code).toBe('authoring_unavailable');
      expect(res.json().message).toContain('AUTHOR_LLM_URL');
    }
    expect(await t.db.kysely.selectFrom('macros').select('id').execute()).toEqual([]);
  });

  test('credits still answer: the month, the default allowance of 1000, nothing used', async () => {
    const res = await t.app.inject({ url: '/api/billing/credits', headers: user.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ period_start: '2026-03-01T00:00:00.000Z', period_end: '2026-04-01T00:00:00.000Z', limit: 1000, used: 0 });
  });

  test('without a session (or with only a key) the routes answer 401 missing_credentials first', async () => {
    const { key } = await createKey(t.app, user);
    for (const route of [...ROUTES, { method: 'GET', url: '/api/billing/credits' } as const]) {
      const res = await t.app.inject({ ...route, headers: withKey(key) });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json().details.code).toBe('missing_credentials');
    }
  });
});

describe('with a model endpoint (no worker takes the sessions)', () => {
  let w: AuthoringWorld;
  let other: SignedUpUser;
  beforeAll(async () => {
    w = await authoringWorld({}, { workers: false });
    other = await signUp(w.t.app);
  });
  afterAll(async () => closeAuthoringWorld(w));

  const post = (url: string, payload: object | undefined, user: SignedUpUser = w.user) => w.t.app.inject({ method: 'POST', url, headers: user.auth, ...(payload ? { payload } : {}) });

  test('a start creates a code macro named after the goal and answers 201 working', async () => {
    const deviceId = await cloudDevice(w);
    const session = await startSession(w, { goal: 'Add the espresso beans to the cart\nand check out', device_id: deviceId });
    expect(session).toMatchObject({ state: 'working', device_id: deviceId, state_message: null, question: null, files: null, credits_used: 0 });
    const macro = (await w.t.app.inject({ url: `/api/macros/${session.macro_id}`, headers: w.user.auth })).json();
    expect(macro).toMatchObject({ name: 'Add the espresso beans to the cart', kind: 'python' });
    const list = (await w.t.app.inject({ url: '/api/authoring/sessions', headers: w.user.auth })).json();
    expect(list.rows[0].id).toBe(session.id);
    expect((await w.t.app.inject({ url: '/api/authoring/sessions', headers: other.auth })).json().total_rows).toBe(0);
  });

  test('start checks: bad bodies 422, someone else\'s device or macro 404, a local device 404 not_a_cloud_device, a block macro 422; none creates anything', async () => {
    const before = await w.t.db.kysely.selectFrom('macros').select('id').execute();
    const sessionsBefore = await w.t.db.kysely.selectFrom('authoring_sessions').select('id').execute();
    const cases: [object, number, string][] = [
      [{}, 422, 'validation_failed'],
      [{ goal: '' }, 422, 'validation_failed'],
      [{ goal: 'x'.repeat(4001) }, 422, 'validation_failed'],
      [{ goal: 7 }, 422, 'validation_failed'],
      [{ goal: 'ok', extra: 1 }, 422, 'validation_failed'],
      [{ goal: 'ok', device_id: await cloudDevice(w, other) }, 404, 'not_found'],
      [{ goal: 'ok', device_id: (await createDevice(w.t.app, w.user)).id }, 404, 'not_a_cloud_device'],
      [{ goal: 'ok', macro_id: (await createMacro(w.t.app, other, { kind: 'python' })).id }, 404, 'not_found'],
      [{ goal: 'ok', macro_id: (await createMacro(w.t.app, w.user, { kind: 'block' })).id }, 422, 'validation_failed'],
    ];
    const macrosNow = await w.t.db.kysely.selectFrom('macros').select('id').execute();
    for (const [payload, status, code] of cases) {
      const res = await post('/api/authoring/sessions', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().details.code).toBe(code);
    }
    // Only the fixtures above were made: no macro or session came from a refused start.
    expect((await w.t.db.kysely.selectFrom('macros').select('id').execute()).length).toBe(macrosNow.length);
    expect(macrosNow.length).toBeGreaterThan(before.length);
    expect(await w.t.db.kysely.selectFrom('authoring_sessions').select('id').execute()).toEqual(sessionsBefore);
  });

  test("someone else's session answers 404 on every route and is left as it was", async () => {
    const session = await startSession(w, { goal: 'mine' });
    for (const [method, url] of [['GET', ''], ['GET', '/messages'], ['POST', '/stop']] as const) {
      const res = await w.t.app.inject({ method, url: `/api/authoring/sessions/${session.id}${url}`, headers: other.auth });
      expect(res.statusCode, url).toBe(404);
    }
    expect((await post(`/api/authoring/sessions/${session.id}/answer`, { answer: 'hi' }, other)).statusCode).toBe(404);
    expect((await w.t.app.inject({ url: `/api/authoring/sessions/${session.id}`, headers: w.user.auth })).json().state).toBe('working');
  });

  test('answer when nothing was asked: 409 not_waiting; stop answers stopped at once, again answers the same', async () => {
    const session = await startSession(w, { goal: 'stop me' });
    const answer = await post(`/api/authoring/sessions/${session.id}/answer`, { answer: 'yes' });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().details.code).toBe('not_waiting');
    expect((await post(`/api/authoring/sessions/${session.id}/answer`, { answer: '' })).statusCode).toBe(422);
    const stop = await post(`/api/authoring/sessions/${session.id}/stop`, undefined);
    expect(stop.statusCode).toBe(200);
    expect(stop.json()).toMatchObject({ state: 'stopped', state_message: 'Stopped at your request.' });
    const again = await post(`/api/authoring/sessions/${session.id}/stop`, undefined);
    expect(again.json().updated_at).toBe(stop.json().updated_at);
    const read = (await w.t.app.inject({ url: `/api/authoring/sessions/${session.id}/messages`, headers: w.user.auth })).json();
    expect(read).toMatchObject({ state: 'stopped', cursor: '1', messages: [{ seq: 1, role: 'agent', text: 'Session stopped.' }] });
    const after = (await w.t.app.inject({ url: `/api/authoring/sessions/${session.id}/messages?cursor=1`, headers: w.user.auth })).json();
    expect(after).toMatchObject({ messages: [], cursor: '1' });
    for (const cursor of ['-1', 'abc', '01', '1.5']) {
      expect((await w.t.app.inject({ url: `/api/authoring/sessions/${session.id}/messages?cursor=${cursor}`, headers: w.user.auth })).statusCode, cursor).toBe(422);
    }
  });

  test('the operator sets the allowance; 0 makes a start answer 402 credits_exhausted; null returns to the default', async () => {
    expect(await setCreditLimit(w, w.user.id, 0)).toMatchObject({ limit: 0, used: 0 });
    const res = await post('/api/authoring/sessions', { goal: 'no credits' });
    expect(res.statusCode).toBe(402);
    expect(res.json().details.code).toBe('credits_exhausted');
    expect(await setCreditLimit(w, w.user.id, null)).toMatchObject({ limit: 1000 });
    expect((await credits(w)).limit).toBe(1000);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    for (const payload of [{ limit: -1 }, { limit: 1_000_001 }, { limit: 1.5 }, { limit: '5' }, {}]) {
      const bad = await w.t.app.inject({ method: 'PUT', url: `/admin/users/${w.user.id}/credits`, headers: admin, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(422);
    }
    expect((await w.t.app.inject({ method: 'PUT', url: '/admin/users/999999/credits', headers: admin, payload: { limit: 5 } })).statusCode).toBe(404);
    expect((await w.t.app.inject({ method: 'PUT', url: `/admin/users/${w.user.id}/credits`, headers: w.user.auth, payload: { limit: 5 } })).statusCode).toBe(401);
  });
});
