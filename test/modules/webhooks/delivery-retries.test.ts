// A delivery to a real HTTPS receiver: signed per Standard Webhooks (verified by the standardwebhooks package), matched by pattern and scope, retried on the schedule with jitter and Retry-After, and ended by 410.
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { createDevice, createGroup, createMacro } from '../../helpers/resources.js';
import { withKey } from '../../helpers/users.js';
import { createEndpoint, deliveriesOf, sendTestEvent, testWorker } from '../../helpers/webhooks.js';
import { useDeliveryHarness, t, ca, rx, user, key, run, endpointUrl, getEndpoint } from './delivery-harness.js';

useDeliveryHarness();

describe('a delivery', () => {
  test('is signed per Standard Webhooks: the standardwebhooks package verifies it unchanged, and the body is the stored payload', async () => {
    const { secret, endpoint } = await createEndpoint(t.app, key, { url: endpointUrl() });
    const eventId = await sendTestEvent(t.app, key, endpoint.id);
    expect(await run()).toBe(1);
    const [received] = rx.requests;
    expect(received.headers['webhook-id']).toBe(eventId);
    expect(received.headers['content-type']).toBe('application/json');
    const verified = new Webhook(secret).verify(received.body, received.headers as Record<string, string>);
    expect(verified).toEqual({ id: eventId, type: 'webhook.test', timestamp: expect.any(String), data: { endpoint_id: endpoint.id, message: expect.any(String) } });
    const [delivery] = await deliveriesOf(t.app, key);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 200, last_response_body: 'ok', event_type: 'webhook.test' });
    expect(delivery.next_attempt_at).toBeUndefined();
    const read = (await t.app.inject({ url: `/api/webhooks/deliveries/${delivery.id}`, headers: withKey(key) })).json();
    expect(read.payload).toBe(received.body);
    expect((await getEndpoint(endpoint.id)).last_success_at).toBe(new Date(t.clock.now()).toISOString());
  });

  test('matching: patterns *, prefix.* and exact names, and scopes all, groups and devices (by the device\'s group)', async () => {
    const group = await createGroup(t.app, user);
    const inGroup = await createDevice(t.app, user, { group_id: group.id });
    const outside = await createDevice(t.app, user);
    const make = async (name: string, body: object) => [name, (await createEndpoint(t.app, key, { url: endpointUrl(name), ...body })).endpoint.id] as const;
    const endpoints = Object.fromEntries([
      await make('all', {}),
      await make('custom', { event_types: ['custom.*'] }),
      await make('exact', { event_types: ['custom.order.paid'] }),
      await make('macro', { event_types: ['macro.*'] }),
      await make('group', { scope_mode: 'groups', scope_group_ids: [group.id] }),
      await make('device', { scope_mode: 'devices', scope_device_ids: [outside.id] }),
    ]);
    const emit = async (type: string, deviceId?: number) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/events', headers: user.auth, payload: { type, data: {}, ...(deviceId ? { device_id: deviceId } : {}) } });
      expect(res.statusCode, res.body).toBe(202);
      return res.json().deliveries as number;
    };
    expect(await emit('custom.order.paid', inGroup.id)).toBe(4); // all, custom, exact, group
    expect(await emit('custom.other', outside.id)).toBe(3); // all, custom, device
    expect(await emit('custom.other')).toBe(2); // no device: only unscoped endpoints
    // A run lifecycle event from the run report fans out in the same way.
    const macro = await createMacro(t.app, user);
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/executions/report',
      headers: user.auth,
      payload: { execution_id: 'run-1', status: 'running', macro_id: macro.id, device_id: inGroup.id, execution_type: 'python', started_at: new Date(t.clock.now()).toISOString() },
    });
    expect(report.statusCode, report.body).toBe(200);
    const rows = await deliveriesOf(t.app, key);
    const started = rows.filter((row) => row.event_type === 'macro.started').map((row) => row.endpoint_id);
    expect(started.sort()).toEqual([endpoints.all, endpoints.macro, endpoints.group].sort());
    expect(await run()).toBe(rows.length);
    expect(new Set(rx.requests.map((r) => r.path))).toEqual(new Set(['/all', '/custom', '/exact', '/macro', '/group', '/device']));
    const macroRequest = rx.requests.find((r) => r.path === '/macro');
    expect(JSON.parse(macroRequest?.body ?? '{}')).toMatchObject({ type: 'macro.started', data: { execution_id: 'run-1', status: 'running' } });
  });
});

describe('the schedule and the statuses', () => {
  test('failures retry on the schedule with ±20% jitter, then end exhausted; 3xx is a failure; the same bytes every time', async () => {
    const { endpoint } = await createEndpoint(t.app, key, { url: endpointUrl() });
    const eventId = await sendTestEvent(t.app, key, endpoint.id);
    rx.answers.push({ status: 500, body: 'down' }, { status: 302, headers: { location: 'https://example.com/' } }, { status: 503 });
    const start = t.clock.now();
    expect(await run()).toBe(1);
    let [delivery] = await deliveriesOf(t.app, key);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'HTTP 500', last_response_body: 'down' });
    // random() = 0.5 is the middle of the jitter range: exactly the scheduled delay.
    expect(Date.parse(delivery.next_attempt_at ?? '')).toBe(start + 10_000);
    t.clock.advance(9_999);
    expect(await run()).toBe(0);
    t.clock.advance(1);
    expect(await run()).toBe(1);
    [delivery] = await deliveriesOf(t.app, key);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, last_status_code: 302, last_error: 'HTTP 302: redirects are not followed' });
    expect(rx.requests).toHaveLength(2);
    t.clock.advance(60_000);
    expect(await run()).toBe(1);
    [delivery] = await deliveriesOf(t.app, key);
    expect(delivery).toMatchObject({ status: 'exhausted', attempts: 3, last_status_code: 503 });
    expect(delivery.next_attempt_at).toBeUndefined();
    expect(new Set(rx.requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(rx.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
    expect((await getEndpoint(endpoint.id)).consecutive_failures).toBe(3);
  });

  test('jitter stays within ±20% of the scheduled delay', async () => {
    for (const [random, expected] of [[0, 8_000], [1, 12_000]] as const) {
      const jittery = testWorker(t, ca, { random: () => random });
      const { endpoint } = await createEndpoint(t.app, key, { url: endpointUrl() });
      await sendTestEvent(t.app, key, endpoint.id);
      rx.answers.push({ status: 500 });
      await jittery.worker.runOnce();
      await jittery.close();
      const [delivery] = await deliveriesOf(t.app, key, `&endpoint_id=${endpoint.id}`);
      expect(Date.parse(delivery.next_attempt_at ?? '') - t.clock.now()).toBe(expected);
    }
  });

  test('Retry-After pushes the next attempt later, at most to twice the scheduled delay', async () => {
    const { endpoint } = await createEndpoint(t.app, key, { url: endpointUrl() });
    await sendTestEvent(t.app, key, endpoint.id);
    rx.answers.push({ status: 429, headers: { 'retry-after': '15' } }, { status: 503, headers: { 'retry-after': '3600' } });
    await run();
    let [delivery] = await deliveriesOf(t.app, key);
    expect(Date.parse(delivery.next_attempt_at ?? '') - t.clock.now()).toBe(15_000);
    t.clock.advance(15_000);
    await run();
    [delivery] = await deliveriesOf(t.app, key);
    expect(Date.parse(delivery.next_attempt_at ?? '') - t.clock.now()).toBe(120_000);
  });

  test('410 ends the delivery as failed, disables the endpoint (gone) and fails its other pending deliveries; re-enable clears it', async () => {
    const { endpoint } = await createEndpoint(t.app, key, { url: endpointUrl() });
    await sendTestEvent(t.app, key, endpoint.id);
    await run();
    rx.fallback = { status: 410 };
    await sendTestEvent(t.app, key, endpoint.id);
    await sendTestEvent(t.app, key, endpoint.id);
    // One attempt answers 410; the other pending delivery ends without being sent.
    expect(await run()).toBe(2);
    expect(rx.requests.length).toBeLessThanOrEqual(3);
    const rows = await deliveriesOf(t.app, key, '&status=failed');
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.last_error).sort()).toEqual(expect.arrayContaining(['The endpoint answered 410 Gone.']));
    expect(await getEndpoint(endpoint.id)).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    const res = await t.app.inject({ method: 'PUT', url: `/api/webhooks/${endpoint.id}`, headers: withKey(key), payload: { enabled: true } });
    expect(res.json()).toMatchObject({ enabled: true, consecutive_failures: 0 });
    expect(res.json().disabled_reason).toBeUndefined();
  });
});
