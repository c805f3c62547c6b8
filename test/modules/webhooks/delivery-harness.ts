// The delivery tests' shared set-up: the webhook harness's delivery world (test CA, HTTPS
// receiver, app on a manual clock, a fresh user and key per test) with the retry schedule
// 0, 10 s, 60 s (three attempts) and the streak rule at 3 failures over 1 hour, plus one
// delivery worker that trusts the test CA.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { WebhookWorkerHandle } from '../../../src/modules/webhooks/runner.js';
import type { TestApp } from '../../helpers/app.js';
import type { SignedUpUser } from '../../helpers/users.js';
import { withKey } from '../../helpers/users.js';
import { type Receiver, type TestCa, testWorker, useDeliveryWorld } from '../../helpers/webhooks.js';

export let t: TestApp;
export let ca: TestCa;
export let rx: Receiver;
export let worker: WebhookWorkerHandle;
export let user: SignedUpUser;
export let key: string;

/** Registers the shared set-up as the calling test file's own hooks (each file calls it once, so files can share a process). */
export function useDeliveryHarness(): void {
  const world = useDeliveryWorld({ WEBHOOK_RETRY_SCHEDULE: '0,10,60', WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_DISABLE_AFTER_HOURS: '1' });
  beforeAll(() => {
    ({ t, ca, rx } = world);
    worker = testWorker(t, ca);
  });
  // Hooks after a test file's run in reverse order: the worker closes before the app it uses.
  afterAll(async () => {
    await worker?.close();
  });
  beforeEach(() => {
    ({ user, key } = world);
  });
}

export const run = () => worker.worker.runOnce();
export const endpointUrl = (path = 'hook') => `https://127.0.0.1:${rx.port}/${path}`;
export const getEndpoint = async (id: number) => (await t.app.inject({ url: `/api/webhooks/${id}`, headers: withKey(key) })).json();
