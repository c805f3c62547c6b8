// A dropped connection after the service processed the request (decisions.md §19): a small
// real server on 127.0.0.1 sits between the client and the service, forwards the first
// connection's request, lets the service answer, and closes the client's socket before a byte
// of that answer reaches it. The SDK and `svc runs start` send the request once more with the
// same Idempotency-Key and get the kept answer: one run, not two.
import { execFile } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createSvcClient } from '#svc-client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { blockMacro, type ClientWorld, cloudDevice, keyFor, newUser, PROGRAMS, startService } from './harness.js';

let world: ClientWorld;
let relay: Server;
let relayUrl: string;
const keysSeen: string[] = [];
const sockets = new Set<Socket>();
let connections = 0;

beforeAll(async () => {
  world = await startService();
  const target = new URL(world.baseUrl);
  relay = createServer((client: Socket) => {
    connections += 1;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const drop = connections === 1;
    const upstream = connect(Number(target.port), target.hostname);
    client.on('data', (chunk) => {
      const key = /idempotency-key: ([^\r\n]+)/i.exec(chunk.toString('latin1'))?.[1];
      if (key) keysSeen.push(key);
      upstream.write(chunk);
    });
    // The first connection: the service answers, the client never hears it.
    upstream.on('data', (chunk) => (drop ? client.destroy() : client.write(chunk)));
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => relay.close(() => resolve()));
  await world.close();
});

const runsOn = async (deviceId: number) => (await world.t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', deviceId).execute()).length;

/** A new account with a device and a block macro; the relay's counters from zero. */
async function freshStart() {
  const user = await newUser(world);
  const key = await keyFor(world, user, ['macros:run', 'runs:read']);
  const deviceId = await cloudDevice(world, user);
  const macroId = await blockMacro(world, user, 'Waits', PROGRAMS.waits);
  connections = 0;
  keysSeen.length = 0;
  return { key, deviceId, macroId };
}

test('the SDK: the start is sent again with the same key and answers the one run', async () => {
  const { key, deviceId, macroId } = await freshStart();
  const svc = createSvcClient({ apiKey: key, baseUrl: relayUrl });
  const run = await svc.runs.start(deviceId, { macro_id: macroId });
  expect(run.device_id).toBe(deviceId);
  expect(connections).toBe(2);
  expect(keysSeen).toHaveLength(2);
  expect(keysSeen[0]).toBe(keysSeen[1]);
  expect(await runsOn(deviceId)).toBe(1);
  await svc.runs.stop(run.id);
});

test('svc runs start: the same, through the command', async () => {
  const { key, deviceId, macroId } = await freshStart();
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['dist/main.js', 'runs', 'start', '--device', String(deviceId), '--macro', String(macroId), '--json'], { env: { ...process.env, BASE_URL: '', SVC_API_KEY: key, SVC_BASE_URL: relayUrl } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
  expect(JSON.parse(out).device_id).toBe(deviceId);
  expect(connections).toBe(2);
  expect(keysSeen[0]).toBe(keysSeen[1]);
  expect(await runsOn(deviceId)).toBe(1);
});
