// Webhook test doubles: a test certificate authority made with openssl, a real HTTPS
// receiver on 127.0.0.1 that records each request and answers as the test says, and a
// delivery worker that trusts the test CA (passed in, as NODE_EXTRA_CA_CERTS is read only at
// process start).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Resolver } from '../../src/lib/address-policy.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createWebhookWorker, type WebhookWorkerHandle } from '../../src/modules/webhooks/runner.js';
import { createTestApp, type TestApp } from './app.js';
import { createKey, type SignedUpUser, signUp } from './users.js';

export interface TestCa {
  caPem: string;
  caFile: string;
  key: string;
  cert: string;
  dispose(): void;
}

/** A CA and a server certificate for 127.0.0.1, localhost and hooks.test (P-256, two days). */
export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ca-'));
  const file = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const ossl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  ossl('req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2', '-subj', '/CN=Webhook test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  ossl('req', ...ec, '-keyout', file('srv.key'), '-out', file('srv.csr'), '-subj', '/CN=localhost');
  writeFileSync(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:hooks.test\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  ossl('x509', '-req', '-in', file('srv.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('srv.pem'), '-days', '2', '-extfile', file('ext.cnf'));
  return {
    caPem: readFileSync(file('ca.pem'), 'utf8'),
    caFile: file('ca.pem'),
    key: readFileSync(file('srv.key'), 'utf8'),
    cert: readFileSync(file('srv.pem'), 'utf8'),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  servername: string | undefined;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Never answer (the killed-worker test); the socket is destroyed on close. */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Answers for the next requests, in order; afterwards `fallback`. */
  answers: Answer[];
  fallback: Answer;
  /** Resolves when `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(ca: TestCa): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests,
    answers: [],
    fallback: { status: 200, body: 'ok' },
    waitFor(count, timeoutMs = 15_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${requests.length} of ${count} requests`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const servername = (req.socket as { servername?: string | false }).servername || undefined;
      requests.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), servername });
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const answer = receiver.answers.shift() ?? receiver.fallback;
      if (answer.hang) return;
      res.writeHead(answer.status ?? 200, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as { port: number }).port;
  receiver.url = `https://127.0.0.1:${receiver.port}/hook`;
  return receiver;
}

export const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

export function testWorker(t: TestApp, ca: TestCa, options: { resolver?: Resolver; name?: string; random?: () => number; connectTimeoutMs?: number; attemptTimeoutMs?: number } = {}): WebhookWorkerHandle {
  return createWebhookWorker({ config: t.config, db: t.db, clock: t.clock, log: silentLog, ca: [ca.caPem], random: options.random ?? (() => 0.5), ...options });
}

export async function createEndpoint(app: FastifyInstance, key: string, body: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url: '/api/webhooks', headers: { 'x-api-key': key }, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { secret: string; endpoint: { id: number } & Record<string, unknown>; warning: string };
}

export async function sendTestEvent(app: FastifyInstance, key: string, endpointId: number): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `/api/webhooks/${endpointId}/test`, headers: { 'x-api-key': key } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().queued).toBe(true);
  return res.json().event_id;
}

export async function deliveriesOf(app: FastifyInstance, key: string, query = '') {
  const res = await app.inject({ url: `/api/webhooks/deliveries?page_size=200${query}`, headers: { 'x-api-key': key } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().rows as ({ id: number; status: string; attempts: number; next_attempt_at?: string; last_status_code?: number; last_error?: string } & Record<string, unknown>)[];
}

export interface DeliveryWorld {
  readonly t: TestApp;
  readonly ca: TestCa;
  readonly rx: Receiver;
  /** A fresh user per test, with a full-access key. */
  readonly user: SignedUpUser;
  readonly key: string;
}

/**
 * The delivery tests' set-up, registered as hooks of the calling test file: a test CA, one
 * HTTPS receiver and an app on a manual clock that starts at real time (receivers refuse a
 * webhook-timestamp more than 5 minutes off their own clock). Before each test: the clock back
 * at real time, no pending delivery left from another test, a fresh user and key, and a
 * receiver that answers 200 with nothing recorded. `resolver` replaces the app's DNS look-ups
 * (the address tests resolve names that exist only there); the worker takes its own.
 */
export function useDeliveryWorld(env: Record<string, string>, options: { resolver?: Resolver } = {}): DeliveryWorld {
  let t: TestApp | undefined;
  let ca: TestCa | undefined;
  let rx: Receiver | undefined;
  let user: SignedUpUser | undefined;
  let key: string | undefined;
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the delivery world's ${name} is used before its set-up ran`);
    return value;
  };
  beforeAll(async () => {
    ca = makeTestCa();
    rx = await startReceiver(ca);
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...env }, clock: new ManualClock(Date.now()), resolver: options.resolver });
  });
  afterAll(async () => {
    await t?.close();
    await rx?.close();
    ca?.dispose();
  });
  beforeEach(async () => {
    const app = ready(t, 'app');
    const receiver = ready(rx, 'receiver');
    // Another test's leftover retries would otherwise be due here and count as this test's attempts.
    app.clock.set(Date.now());
    await app.db.kysely.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null }).where('status', '=', 'pending').execute();
    user = await signUp(app.app);
    key = (await createKey(app.app, user)).key;
    receiver.requests.length = 0;
    receiver.answers.length = 0;
    receiver.fallback = { status: 200, body: 'ok' };
  });
  return {
    get t() {
      return ready(t, 'app');
    },
    get ca() {
      return ready(ca, 'CA');
    },
    get rx() {
      return ready(rx, 'receiver');
    },
    get user() {
      return ready(user, 'user');
    },
    get key() {
      return ready(key, 'key');
    },
  };
}
