// Attempt time-outs (5 s connect, 15 s whole attempt by default), shrunk through the
// worker's options: a receiver that accepts and never answers, and a server that accepts the
// TCP connection but never starts TLS. Either way the attempt fails with a time-out recorded
// in last_error, and the delivery gets its next attempt scheduled.
import { createServer, type Server, type Socket } from 'node:net';
import { beforeEach, describe, expect, test } from 'vitest';
import type { WebhookWorkerHandle } from '../../../src/modules/webhooks/runner.js';
import { ATTEMPT_TIMEOUT_MS, CONNECT_TIMEOUT_MS } from '../../../src/modules/webhooks/transport.js';
import type { TestApp } from '../../helpers/app.js';
import { createEndpoint, deliveriesOf, type Receiver, sendTestEvent, type TestCa, testWorker, useDeliveryWorld } from '../../helpers/webhooks.js';

const SHORT_MS = 200;
const HANG_MS = 2_000;

const world = useDeliveryWorld({ WEBHOOK_RETRY_SCHEDULE: '0,10,60' });
let t: TestApp;
let ca: TestCa;
let rx: Receiver;
let key: string;
beforeEach(() => {
  ({ t, ca, rx, key } = world);
});

const worker = (timeouts: { connectTimeoutMs?: number; attemptTimeoutMs?: number }): WebhookWorkerHandle => testWorker(t, ca, timeouts);

/** Runs one attempt of the endpoint's test event; answers the delivery and how long the attempt took. */
async function attemptOnce(handle: WebhookWorkerHandle, url: string) {
  const { endpoint } = await createEndpoint(t.app, key, { url });
  await sendTestEvent(t.app, key, endpoint.id);
  const started = Date.now();
  expect(await handle.worker.runOnce()).toBe(1);
  const elapsed = Date.now() - started;
  const [delivery] = await deliveriesOf(t.app, key, `&endpoint_id=${endpoint.id}`);
  return { delivery, elapsed };
}

/** The attempt failed without a status code and the second step (10 s, jitter fixed at the middle) is scheduled. */
function expectRetryScheduled(delivery: Awaited<ReturnType<typeof attemptOnce>>['delivery']) {
  expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
  expect(delivery.last_status_code).toBeUndefined();
  expect(delivery.next_attempt_at).toBe(new Date(t.clock.now() + 10_000).toISOString());
}

describe('attempt time-outs', () => {
  test('the defaults are the documented 5 s connect and 15 s per attempt', () => {
    expect(CONNECT_TIMEOUT_MS).toBe(5_000);
    expect(ATTEMPT_TIMEOUT_MS).toBe(15_000);
  });

  test('a receiver that accepts the request and never answers: the attempt times out, is recorded, and the next attempt is scheduled', async () => {
    // Long enough for the TLS handshake and the request to reach the receiver on a loaded machine.
    const handle = worker({ attemptTimeoutMs: HANG_MS });
    try {
      rx.answers.push({ hang: true });
      const { delivery, elapsed } = await attemptOnce(handle, rx.url);
      expect(rx.requests).toHaveLength(1);
      expect(delivery.last_error).toBe('the attempt timed out');
      expectRetryScheduled(delivery);
      expect(elapsed).toBeGreaterThanOrEqual(HANG_MS - 20);
      expect(elapsed).toBeLessThan(CONNECT_TIMEOUT_MS);

      // The next attempt, answered, succeeds.
      t.clock.advance(10_000);
      expect(await handle.worker.runOnce()).toBe(1);
      const [after] = await deliveriesOf(t.app, key, `&endpoint_id=${delivery.endpoint_id as number}`);
      expect(after).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 200 });
    } finally {
      await handle.close();
    }
  });

  test('a server that accepts the connection but never completes TLS: the connect time-out ends the attempt, and the next attempt is scheduled', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    // The whole-attempt time-out stays long, so only the connect time-out can end it this soon.
    const handle = worker({ connectTimeoutMs: SHORT_MS, attemptTimeoutMs: 10_000 });
    try {
      const { delivery, elapsed } = await attemptOnce(handle, `https://127.0.0.1:${port}/hook`);
      expect(sockets.size).toBeGreaterThanOrEqual(1);
      expect(delivery.last_error).toMatch(/connect timeout/i);
      expectRetryScheduled(delivery);
      expect(elapsed).toBeGreaterThanOrEqual(SHORT_MS - 20);
      expect(elapsed).toBeLessThan(5_000);
    } finally {
      await handle.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
