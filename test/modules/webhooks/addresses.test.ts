// No user can make the server call an internal address: HTTPS only, no user-info, every
// resolved address public unicast, checked at create, update and each attempt, and the
// attempt connects to the vetted address only (DNS rebinding, pinning, proxy variables).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, signUp, withKey } from '../../helpers/users.js';
import { createEndpoint, deliveriesOf, makeTestCa, sendTestEvent, testWorker, useDeliveryWorld } from '../../helpers/webhooks.js';

const dns = new Map<string, string[]>([
  ['hooks.example.com', ['93.184.215.14']],
  ['intranet.example.com', ['10.1.2.3']],
  ['mixed.example.com', ['93.184.215.14', '192.168.1.10']],
  ['rebind.example.com', ['93.184.215.14']],
  ['hooks.test', ['127.0.0.1']],
]);
let lookups: string[] = [];
const resolver = async (host: string) => {
  lookups.push(host);
  const answer = dns.get(host);
  if (!answer) throw new Error('ENOTFOUND');
  return answer;
};

let strict: TestApp;
let key: string;
beforeAll(async () => {
  strict = await createTestApp({ resolver, clock: new ManualClock(Date.now()) });
  key = (await createKey(strict.app, await signUp(strict.app))).key;
});
afterAll(async () => {
  await strict?.close();
});

describe('URL rules at create and update (private networks not allowed)', () => {
  test.each([
    ['http://hooks.example.com/x', 'https'],
    ['https://user:pass@hooks.example.com/x', 'user name'],
    ['https://localhost/x', 'localhost'],
    ['https://127.0.0.1/x', '127.0.0.1'],
    ['https://10.0.0.1/x', '10.0.0.1'],
    ['https://172.16.5.4/x', '172.16.5.4'],
    ['https://192.168.0.1/x', '192.168.0.1'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://100.64.0.1/x', '100.64.0.1'],
    ['https://224.0.0.1/x', '224.0.0.1'],
    ['https://240.0.0.1/x', '240.0.0.1'],
    ['https://0.0.0.0/x', '0.0.0.0'],
    ['https://[::1]/x', '::1'],
    ['https://[fc00::1]/x', 'fc00::1'],
    ['https://[fe80::1]/x', 'fe80::1'],
    ['https://[::ffff:127.0.0.1]/x', '::ffff:7f00:1'],
    ['https://[::ffff:169.254.169.254]/x', '::ffff:a9fe:a9fe'],
    ['https://intranet.example.com/x', '10.1.2.3'],
    ['https://mixed.example.com/x', '192.168.1.10'],
    ['https://nowhere.example.com/x', 'does not resolve'],
  ])('%s is refused (422, naming %s)', async (url, reason) => {
    const res = await strict.app.inject({ method: 'POST', url: '/api/webhooks', headers: withKey(key), payload: { url } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details.errors[0]).toMatchObject({ path: 'body.url' });
    expect(res.json().message).toContain(reason);
  });

  test('a public host is accepted; an update to an internal one is refused and changes nothing', async () => {
    const { endpoint } = await createEndpoint(strict.app, key, { url: 'https://hooks.example.com/in' });
    const res = await strict.app.inject({ method: 'PUT', url: `/api/webhooks/${endpoint.id}`, headers: withKey(key), payload: { url: 'https://intranet.example.com/in' } });
    expect(res.statusCode).toBe(422);
    const read = await strict.app.inject({ url: `/api/webhooks/${endpoint.id}`, headers: withKey(key) });
    expect(read.json().url).toBe('https://hooks.example.com/in');
  });

  test('DNS rebinding: a name public at create that resolves to a private address at delivery is refused at the attempt; the delivery ends failed', async () => {
    const ca = makeTestCa();
    const worker = testWorker(strict, ca, { resolver });
    try {
      const { endpoint } = await createEndpoint(strict.app, key, { url: 'https://rebind.example.com/hook' });
      await sendTestEvent(strict.app, key, endpoint.id);
      dns.set('rebind.example.com', ['10.9.9.9']);
      expect(await worker.worker.runOnce()).toBe(1);
      const [delivery] = await deliveriesOf(strict.app, key, `&endpoint_id=${endpoint.id}`);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
      expect(delivery.last_error).toMatch(/address refused.*10\.9\.9\.9/);
      expect(delivery.last_status_code).toBeUndefined();
    } finally {
      await worker.close();
      ca.dispose();
    }
  });
});

describe('the connection goes to the vetted address only (private networks allowed, as in development)', () => {
  const world = useDeliveryWorld({}, { resolver });

  test('one look-up per attempt through the injected resolver, SNI and Host carry the name, and proxy variables are ignored', async () => {
    const { t: dev, ca, rx, key: devKey } = world;
    // hooks.test exists only in the injected resolver: the system resolver cannot find it.
    const { endpoint } = await createEndpoint(dev.app, devKey, { url: `https://hooks.test:${rx.port}/pinned` });
    await sendTestEvent(dev.app, devKey, endpoint.id);
    const worker = testWorker(dev, ca, { resolver });
    const saved = { HTTPS_PROXY: process.env.HTTPS_PROXY, https_proxy: process.env.https_proxy };
    process.env.HTTPS_PROXY = 'http://127.0.0.1:1';
    process.env.https_proxy = 'http://127.0.0.1:1';
    lookups = [];
    try {
      expect(await worker.worker.runOnce()).toBe(1);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await worker.close();
    }
    expect(lookups).toEqual(['hooks.test']);
    expect((await deliveriesOf(dev.app, devKey))[0]).toMatchObject({ status: 'succeeded' });
    const [received] = rx.requests;
    expect(received.path).toBe('/pinned');
    expect(received.servername).toBe('hooks.test');
    expect(received.headers.host).toBe(`hooks.test:${rx.port}`);
  });
});
