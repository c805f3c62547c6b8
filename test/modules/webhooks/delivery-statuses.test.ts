// The endpoint statuses and the actions on deliveries: the streak rule, regenerate, redeliver, delete, and unreachable endpoints.
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { withKey } from '../../helpers/users.js';
import { createEndpoint, deliveriesOf, sendTestEvent } from '../../helpers/webhooks.js';
import { useDeliveryHarness, t, rx, key, run, endpointUrl, getEndpoint } from './delivery-harness.js';

useDeliveryHarness();

describe('the schedule and the statuses', () => {
  test('the streak rule: disabled only when the streak reaches the threshold AND its first failure is old enough', async () => {
    const { endpoint } = await createEndpoint(t.app, key, { url: endpointUrl() });
    rx.fallback = { status: 500 };
    for (let i = 0; i < 4; i++) await sendTestEvent(t.app, key, endpoint.id);
    await run();
    // Four failures in a moment: over the threshold (3) but the streak is not an hour old.
    expect(await getEndpoint(endpoint.id)).toMatchObject({ enabled: true, consecutive_failures: 4 });
    t.clock.advance(3_600_000);
    await run();
    expect(await getEndpoint(endpoint.id)).toMatchObject({ enabled: false, disabled_reason: 'consecutive_failures' });
    const pending = await deliveriesOf(t.app, key, '&status=pending');
    expect(pending).toEqual([]);
    // A success resets the streak.
    await t.app.inject({ method: 'PUT', url: `/api/webhooks/${endpoint.id}`, headers: withKey(key), payload: { enabled: true } });
    rx.fallback = { status: 500 };
    await sendTestEvent(t.app, key, endpoint.id);
    await run();
    rx.fallback = { status: 204 };
    await sendTestEvent(t.app, key, endpoint.id);
    await run();
    expect(await getEndpoint(endpoint.id)).toMatchObject({ enabled: true, consecutive_failures: 0 });
  });

  test('regenerate: the very next attempt is signed with the new secret', async () => {
    const created = await createEndpoint(t.app, key, { url: endpointUrl() });
    await sendTestEvent(t.app, key, created.endpoint.id);
    rx.answers.push({ status: 500 });
    await run();
    const fresh = (await t.app.inject({ method: 'POST', url: `/api/webhooks/${created.endpoint.id}/regenerate-secret`, headers: withKey(key) })).json();
    t.clock.advance(10_000);
    await run();
    const [first, second] = rx.requests;
    expect(() => new Webhook(created.secret).verify(first.body, first.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(created.secret).verify(second.body, second.headers as Record<string, string>)).toThrow();
    expect(() => new Webhook(fresh.secret).verify(second.body, second.headers as Record<string, string>)).not.toThrow();
  });

  test('redeliver: the same delivery back to pending with a fresh schedule and the same webhook-id; attempts keep counting', async () => {
    const { endpoint } = await createEndpoint(t.app, key, { url: endpointUrl() });
    await sendTestEvent(t.app, key, endpoint.id);
    await run();
    const [delivery] = await deliveriesOf(t.app, key);
    const res = await t.app.inject({ method: 'POST', url: `/api/webhooks/deliveries/${delivery.id}/redeliver`, headers: withKey(key) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: delivery.id, status: 'pending', attempts: 1, next_attempt_at: new Date(t.clock.now()).toISOString() });
    await run();
    expect((await deliveriesOf(t.app, key))[0]).toMatchObject({ id: delivery.id, status: 'succeeded', attempts: 2 });
    expect(rx.requests[1].headers['webhook-id']).toBe(rx.requests[0].headers['webhook-id']);
    expect(rx.requests[1].body).toBe(rx.requests[0].body);
  });

  test('a deleted endpoint: its pending delivery ends failed without a request', async () => {
    const { endpoint } = await createEndpoint(t.app, key, { url: endpointUrl() });
    await sendTestEvent(t.app, key, endpoint.id);
    await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${endpoint.id}`, headers: withKey(key) });
    expect(await run()).toBe(0);
    expect(rx.requests).toHaveLength(0);
    expect((await deliveriesOf(t.app, key))[0]).toMatchObject({ status: 'failed', attempts: 0 });
  });

  test('an unreachable endpoint is a failed attempt with the error stored (at most 1 KiB), and a long body is cut to 16 KiB', async () => {
    const closed = await createEndpoint(t.app, key, { url: 'https://127.0.0.1:1/hook' });
    await sendTestEvent(t.app, key, closed.endpoint.id);
    const big = await createEndpoint(t.app, key, { url: endpointUrl() });
    await sendTestEvent(t.app, key, big.endpoint.id);
    rx.fallback = { status: 200, body: Buffer.alloc(100 * 1024, 'a') };
    await run();
    const rows = await deliveriesOf(t.app, key);
    const refused = rows.find((r) => r.endpoint_id === closed.endpoint.id);
    expect(refused).toMatchObject({ status: 'pending', attempts: 1 });
    expect(refused?.last_error).toMatch(/ECONNREFUSED/);
    expect(Buffer.byteLength(refused?.last_error ?? '')).toBeLessThanOrEqual(1024);
    const long = rows.find((r) => r.endpoint_id === big.endpoint.id);
    expect(long).toMatchObject({ status: 'succeeded' });
    expect(long?.last_response_body).toHaveLength(16 * 1024);
  });
});
