// Webhook endpoint management: the 10-endpoint limit, field rules, scopes of the caller's
// own groups and devices, the secret shown once and encrypted at rest, PUT semantics,
// delete answering the remaining list, and other accounts' ids answering 404.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createDevice, createGroup } from '../../helpers/resources.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { createEndpoint, deliveriesOf, sendTestEvent } from '../../helpers/webhooks.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
});
afterAll(async () => {
  await t?.close();
});

const URL = 'https://127.0.0.1:9/hook';

async function account(): Promise<{ user: SignedUpUser; key: string }> {
  const user = await signUp(t.app);
  return { user, key: (await createKey(t.app, user)).key };
}

const call = (key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: withKey(key), ...(payload ? { payload } : {}) });

describe('creating endpoints', () => {
  test('the secret is shown once, as whsec_ + 32 bytes, encrypted at rest; only its prefix is readable later', async () => {
    const { key } = await account();
    const created = await createEndpoint(t.app, key, { url: URL, description: 'Orders' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created.warning).toMatch(/not shown again/);
    expect(created.endpoint).toEqual({
      id: expect.any(Number),
      url: URL,
      description: 'Orders',
      event_types: ['*'],
      secret_prefix: created.secret.slice(0, 12),
      scope_mode: 'all',
      scope_group_ids: [],
      scope_device_ids: [],
      scope_device_count: 0,
      enabled: true,
      consecutive_failures: 0,
      created_at: expect.any(String),
    });
    const read = await call(key, 'GET', `/api/webhooks/${created.endpoint.id}`);
    expect(read.body).not.toContain(created.secret);
    expect(read.json()).toEqual(created.endpoint);
    const row = await t.db.kysely.selectFrom('webhook_endpoints').selectAll().where('id', '=', created.endpoint.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));
    expect(t.logs.join('')).not.toContain(created.secret);
  });

  test('an account holds at most 10 endpoints; the 11th answers 422 endpoint_limit_reached', async () => {
    const { key } = await account();
    await Promise.all(Array.from({ length: 10 }, () => createEndpoint(t.app, key, { url: URL })));
    const res = await call(key, 'POST', '/api/webhooks', { url: URL });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toMatchObject({ code: 'endpoint_limit_reached', limit: 10 });
    expect((await call(key, 'GET', '/api/webhooks')).json().total).toBe(10);
  });

  test.each([
    [{ url: URL, description: 'x'.repeat(256) }, 'description'],
    [{ url: URL, event_types: [] }, 'event_types'],
    [{ url: URL, event_types: ['Macro Started'] }, 'event_types'],
    [{ url: URL, event_types: ['macro.*.x*'] }, 'event_types'],
    [{ url: URL, scope_mode: 'groups' }, 'scope_group_ids'],
    [{ url: URL, scope_mode: 'devices', scope_device_ids: [] }, 'scope_device_ids'],
    [{ url: URL, scope_mode: 'all', scope_group_ids: [1] }, 'scope_group_ids'],
    [{ url: URL, scope_mode: 'everything' }, 'scope_mode'],
    [{ url: 'http://127.0.0.1/hook' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: URL, extra: true }, 'extra'],
  ])('%j is refused with 422 naming %s, and nothing is stored', async (body, field) => {
    const { key } = await account();
    const res = await call(key, 'POST', '/api/webhooks', body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details.code).toBe('validation_failed');
    expect(res.body).toContain(field);
    expect((await call(key, 'GET', '/api/webhooks')).json().total).toBe(0);
  });

  test('patterns: *, prefix.* and exact names are accepted', async () => {
    const { key } = await account();
    const { endpoint } = await createEndpoint(t.app, key, { url: URL, event_types: ['custom.*', 'macro.failed', '*'] });
    expect(endpoint.event_types).toEqual(['custom.*', 'macro.failed', '*']);
  });

  test("a narrowed scope names the caller's own groups or devices; scope_device_count counts devices covered now", async () => {
    const { user, key } = await account();
    const other = await account();
    const group = await createGroup(t.app, user);
    await createDevice(t.app, user, { group_id: group.id });
    await createDevice(t.app, user, { group_id: group.id });
    const loose = await createDevice(t.app, user);
    const foreignGroup = await createGroup(t.app, other.user);
    const foreignDevice = await createDevice(t.app, other.user);

    const byGroup = await createEndpoint(t.app, key, { url: URL, scope_mode: 'groups', scope_group_ids: [group.id] });
    expect(byGroup.endpoint).toMatchObject({ scope_mode: 'groups', scope_group_ids: [group.id], scope_device_ids: [], scope_device_count: 2 });
    const byDevice = await createEndpoint(t.app, key, { url: URL, scope_mode: 'devices', scope_device_ids: [loose.id] });
    expect(byDevice.endpoint).toMatchObject({ scope_device_ids: [loose.id], scope_device_count: 1 });
    const all = await createEndpoint(t.app, key, { url: URL });
    expect(all.endpoint.scope_device_count).toBe(3);

    for (const body of [
      { url: URL, scope_mode: 'groups', scope_group_ids: [foreignGroup.id] },
      { url: URL, scope_mode: 'devices', scope_device_ids: [loose.id, foreignDevice.id] },
    ]) {
      const res = await call(key, 'POST', '/api/webhooks', body);
      expect(res.statusCode).toBe(422);
      expect(res.body).toMatch(/is not one of your/);
    }
    expect((await call(key, 'GET', '/api/webhooks')).json().total).toBe(3);
  });
});

describe('changing endpoints', () => {
  test('PUT changes the given fields; omitting scope_mode keeps the scope; ids without scope_mode are refused', async () => {
    const { user, key } = await account();
    const group = await createGroup(t.app, user);
    const { endpoint } = await createEndpoint(t.app, key, { url: URL, scope_mode: 'groups', scope_group_ids: [group.id] });
    const res = await call(key, 'PUT', `/api/webhooks/${endpoint.id}`, { description: 'New', event_types: ['macro.*'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ description: 'New', event_types: ['macro.*'], scope_mode: 'groups', scope_group_ids: [group.id] });
    const bad = await call(key, 'PUT', `/api/webhooks/${endpoint.id}`, { scope_device_ids: [1], description: 'Changed?' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('scope_mode');
    expect((await call(key, 'GET', `/api/webhooks/${endpoint.id}`)).json().description).toBe('New');
    const widened = await call(key, 'PUT', `/api/webhooks/${endpoint.id}`, { scope_mode: 'all' });
    expect(widened.json()).toMatchObject({ scope_mode: 'all', scope_group_ids: [] });
  });

  test('enabled: true clears the failure streak and disabled_reason', async () => {
    const { key } = await account();
    const { endpoint } = await createEndpoint(t.app, key, { url: URL });
    await t.db.kysely
      .updateTable('webhook_endpoints')
      .set({ enabled: 0, consecutive_failures: 20, first_failure_at: 1, disabled_reason: 'consecutive_failures' })
      .where('id', '=', endpoint.id)
      .execute();
    expect((await call(key, 'GET', `/api/webhooks/${endpoint.id}`)).json()).toMatchObject({ enabled: false, consecutive_failures: 20, disabled_reason: 'consecutive_failures' });
    const res = await call(key, 'PUT', `/api/webhooks/${endpoint.id}`, { enabled: true });
    expect(res.json()).toMatchObject({ enabled: true, consecutive_failures: 0 });
    expect(res.json().disabled_reason).toBeUndefined();
  });

  test('a disabled endpoint gets no test event; disabling fails its pending deliveries', async () => {
    const { key } = await account();
    const { endpoint } = await createEndpoint(t.app, key, { url: URL });
    await sendTestEvent(t.app, key, endpoint.id);
    await call(key, 'PUT', `/api/webhooks/${endpoint.id}`, { enabled: false });
    expect((await deliveriesOf(t.app, key))[0]).toMatchObject({ status: 'failed', last_error: 'The endpoint was disabled.' });
    const res = await call(key, 'POST', `/api/webhooks/${endpoint.id}/test`);
    expect(res.json()).toMatchObject({ queued: false });
  });

  test('regenerate returns a new secret once and changes the prefix', async () => {
    const { key } = await account();
    const created = await createEndpoint(t.app, key, { url: URL });
    const res = await call(key, 'POST', `/api/webhooks/${created.endpoint.id}/regenerate-secret`);
    expect(res.statusCode).toBe(200);
    expect(res.json().secret).not.toBe(created.secret);
    expect(res.json().endpoint.secret_prefix).toBe(res.json().secret.slice(0, 12));
  });

  test('delete answers the remaining list; the deliveries stay readable and pending ones end as failed', async () => {
    const { key } = await account();
    const keep = await createEndpoint(t.app, key, { url: URL });
    const gone = await createEndpoint(t.app, key, { url: URL });
    await sendTestEvent(t.app, key, gone.endpoint.id);
    const res = await call(key, 'DELETE', `/api/webhooks/${gone.endpoint.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [keep.endpoint], total: 1 });
    const [delivery] = await deliveriesOf(t.app, key, `&endpoint_id=${gone.endpoint.id}`);
    expect(delivery).toMatchObject({ status: 'failed', last_error: 'The endpoint was deleted.' });
    expect((await call(key, 'GET', `/api/webhooks/deliveries/${delivery.id}`)).statusCode).toBe(200);
    const again = await call(key, 'POST', `/api/webhooks/deliveries/${delivery.id}/redeliver`);
    expect(again.statusCode).toBe(409);
    expect(again.json().details.code).toBe('endpoint_deleted');
  });
});

describe("other accounts' ids", () => {
  test('every endpoint and delivery route answers 404 and changes nothing', async () => {
    const owner = await account();
    const stranger = await account();
    const { endpoint } = await createEndpoint(t.app, owner.key, { url: URL });
    await sendTestEvent(t.app, owner.key, endpoint.id);
    const [delivery] = await deliveriesOf(t.app, owner.key);
    for (const [method, url, payload] of [
      ['GET', `/api/webhooks/${endpoint.id}`],
      ['PUT', `/api/webhooks/${endpoint.id}`, { enabled: false }],
      ['DELETE', `/api/webhooks/${endpoint.id}`],
      ['POST', `/api/webhooks/${endpoint.id}/regenerate-secret`],
      ['POST', `/api/webhooks/${endpoint.id}/test`],
      ['GET', `/api/webhooks/deliveries/${delivery.id}`],
      ['POST', `/api/webhooks/deliveries/${delivery.id}/redeliver`],
    ] as const) {
      const res = await call(stranger.key, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await deliveriesOf(t.app, stranger.key)).toEqual([]);
    expect((await call(owner.key, 'GET', `/api/webhooks/${endpoint.id}`)).json()).toEqual(endpoint);
  });
});

describe('POST /api/webhooks/events (custom events)', () => {
  test('the application emits custom.* events; a key cannot', async () => {
    const { user, key } = await account();
    const device = await createDevice(t.app, user);
    await createEndpoint(t.app, key, { url: URL, event_types: ['custom.*'] });
    const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/events', headers: user.auth, payload: { type: 'custom.order.paid', data: { n: 1 }, device_id: device.id } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ event_id: expect.stringMatching(/^evt_/), deliveries: 1 });
    const [delivery] = await deliveriesOf(t.app, key);
    const read = (await call(key, 'GET', `/api/webhooks/deliveries/${delivery.id}`)).json();
    expect(JSON.parse(read.payload)).toEqual({
      id: res.json().event_id,
      type: 'custom.order.paid',
      timestamp: expect.any(String),
      data: { device_id: device.id, group_id: null, execution_id: null, data: { n: 1 } },
    });
    expect((await t.app.inject({ method: 'POST', url: '/api/webhooks/events', headers: withKey(key), payload: { type: 'custom.x', data: {} } })).statusCode).toBe(401);
  });

  test.each([
    [{ type: 'macro.started', data: {} }],
    [{ type: 'custom.', data: {} }],
    [{ type: `custom.${'a'.repeat(65)}`, data: {} }],
    [{ type: 'custom.UPPER', data: {} }],
    [{ type: 'custom.x', data: [] }],
    [{ type: 'custom.x', data: { big: 'x'.repeat(64 * 1024) } }],
    [{ type: 'custom.x', data: {}, device_id: 999999 }],
    [{ type: 'custom.x', data: {}, execution_id: 'nope' }],
  ])('%# refused with 422, nothing recorded', async (payload) => {
    const { user } = await account();
    const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/events', headers: user.auth, payload });
    expect(res.statusCode, res.body).toBe(422);
    const events = await t.db.kysely.selectFrom('events').select('id').where('user_id', '=', user.id).execute();
    expect(events).toHaveLength(0);
  });
});
