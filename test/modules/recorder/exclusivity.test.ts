// A recording holds its device as a lease does (decisions.md §9, §18): while it lasts a run, a
// lease, an exploration, another recording and the live view's tap answer 409 device_busy, and a recording of
// a busy device is refused the same way; stop (or 15 idle minutes) frees the device. The routes
// are session-only (an API key is 401), another account's device or recording is 404, bad
// input is 422 and hostile input never a 500.
import { expect, test } from 'vitest';
import { workerContext } from '../../../src/core/context.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { createKey, withKey } from '../../helpers/users.js';
import { AT, PKG, routes, useRecorderWorld } from './world.js';

const w = useRecorderWorld();
const r = routes(w);

async function blockMacro(): Promise<number> {
  const made = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.owner.auth, payload: { name: 'Log', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'hi' }] } } });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().id;
}

const runOn = (deviceId: number, macroId: number) => r.call('POST', `/api/hosted/devices/${deviceId}/run`, { macro_id: macroId });

async function waitForRunEnd(runId: number) {
  await expect.poll(async () => (await r.call('GET', `/api/hosted/runs/${runId}`)).body.state, { timeout: 30_000, interval: 50 }).toMatch(/^(finished|failed|stopped)$/);
}

test('while recording: a run, a lease, a second recording and the live view tap are 409 device_busy; after stop a run starts', async () => {
  const deviceId = await w.readyDevice();
  const macroId = await blockMacro();
  const rid = (await r.start(deviceId)).body.id as string;

  const run = await runOn(deviceId, macroId);
  expect([run.status, run.body.details.code]).toEqual([409, 'device_busy']);
  expect(run.body.message).toContain('recording');
  const second = await r.start(deviceId);
  expect([second.status, second.body.details.code]).toEqual([409, 'device_busy']);
  expect(second.body.message).toContain(rid);
  const tap = await r.call('POST', `/api/hosted/devices/${deviceId}/tap`, AT.ok);
  expect([tap.status, tap.body.details.code]).toEqual([409, 'device_busy']);
  await expect(w.t.app.modules.devices.services.leases.lease(workerContext(w.owner.id, 'test'), { device_id: deviceId })).rejects.toMatchObject({ status: 409, code: 'device_busy' });
  const exploration = await r.call('POST', '/api/maps/explorations', { device_id: deviceId, package: PKG });
  expect([exploration.status, exploration.body.details.code]).toEqual([409, 'device_busy']);

  // Inputs go through the recording meanwhile.
  expect((await r.input(rid, { type: 'tap', ...AT.hello })).status).toBe(201);

  const stopped = await r.stop(rid);
  expect(stopped.status).toBe(200);
  expect(stopped.body).toMatchObject({ state: 'stopped' });
  expect(stopped.body.ended_at).not.toBeNull();
  const none = await r.call('GET', `/api/hosted/devices/${deviceId}/recording`);
  expect([none.status, none.body]).toEqual([200, { recording: null }]);
  const late = await r.input(rid, { type: 'tap', ...AT.hello });
  expect([late.status, late.body.details.code]).toEqual([409, 'recording_stopped']);
  // Stopping again answers the recording as it is.
  expect((await r.stop(rid)).body.ended_at).toBe(stopped.body.ended_at);

  const after = await runOn(deviceId, macroId);
  expect(after.status, JSON.stringify(after.body)).toBe(201);
  await waitForRunEnd(after.body.id);
});

test('a device with an active run, a lease or another recording cannot be recorded: 409 device_busy', async () => {
  const deviceId = await w.readyDevice();
  const lease = await w.t.app.modules.devices.services.leases.lease(workerContext(w.owner.id, 'test'), { device_id: deviceId });
  const leased = await r.start(deviceId);
  expect([leased.status, leased.body.details.code]).toEqual([409, 'device_busy']);
  await w.t.app.modules.devices.services.leases.release(workerContext(w.owner.id, 'test'), { lease_id: lease.lease_id });

  const running = await w.readyDevice();
  // A run that waits: the device stays busy while it is active.
  const made = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.owner.auth, payload: { name: 'Wait', kind: 'block', blocks: { version: 1, steps: [{ type: 'wait', ms: 600_000 }] } } });
  const run = await runOn(running, made.json().id);
  expect(run.status).toBe(201);
  const busy = await r.start(running);
  expect([busy.status, busy.body.details.code]).toEqual([409, 'device_busy']);
  await r.call('POST', `/api/hosted/runs/${run.body.id}/stop`);
  await waitForRunEnd(run.body.id);
});

test('15 minutes without an input end the recording: the device is free again', async () => {
  const deviceId = await w.readyDevice();
  const rid = (await r.start(deviceId)).body.id as string;
  w.t.clock.advance(10 * 60_000);
  const input = await r.input(rid, { type: 'tap', ...AT.hello });
  expect(input.status).toBe(201);
  // The input extended the hold: ten more minutes are not fifteen since it.
  w.t.clock.advance(10 * 60_000);
  expect((await r.get(rid)).body.state).toBe('recording');
  w.t.clock.advance(5 * 60_000 + 1);
  expect((await r.get(rid)).body.state).toBe('stopped');
  const late = await r.input(rid, { type: 'key', key: 'BACK' });
  expect([late.status, late.body.details.code]).toEqual([409, 'recording_stopped']);
  const again = await r.start(deviceId);
  expect(again.status, JSON.stringify(again.body)).toBe(201);
  await r.stop(again.body.id);
});

test('a device that is not ready is 409 device_not_ready; a local device is 404 not_a_cloud_device', async () => {
  const stopped = (await createCloudDevice(w.t.app, w.owner)).id as number;
  const res = await r.start(stopped);
  expect([res.status, res.body.details.code]).toEqual([409, 'device_not_ready']);
  const local = await w.t.app.inject({ method: 'POST', url: '/api/emulator/devices', headers: w.owner.auth, payload: { name: 'Local', port: 5555 } });
  const refused = await r.start(local.json().id);
  expect([refused.status, refused.body.details.code]).toEqual([404, 'not_a_cloud_device']);
});

test('session only: an API key is 401; another account finds neither the device nor the recording (404)', async () => {
  const deviceId = await w.readyDevice();
  const rid = (await r.start(deviceId)).body.id as string;
  await r.input(rid, { type: 'tap', ...AT.hello });
  const { key } = await createKey(w.t.app, w.owner);
  const keyed = await r.start(deviceId, withKey(key));
  expect([keyed.status, keyed.body.details.code]).toEqual([401, 'missing_credentials']);
  expect((await r.get(rid, withKey(key))).status).toBe(401);

  const other = w.stranger.auth;
  expect((await r.start(deviceId, other)).status).toBe(404);
  expect((await r.call('GET', `/api/hosted/devices/${deviceId}/recording`, undefined, other)).status).toBe(404);
  for (const [method, url, payload] of [
    ['GET', `/api/hosted/recordings/${rid}`],
    ['POST', `/api/hosted/recordings/${rid}/inputs`, { type: 'key', key: 'BACK' }],
    ['POST', `/api/hosted/recordings/${rid}/checks`, AT.ok],
    ['GET', `/api/hosted/recordings/${rid}/steps/1/candidates`],
    ['PATCH', `/api/hosted/recordings/${rid}/steps/1`, { chosen: 0 }],
    ['DELETE', `/api/hosted/recordings/${rid}/steps/1`],
    ['GET', `/api/hosted/recordings/${rid}/steps/1/frame`],
    ['POST', `/api/hosted/recordings/${rid}/save`, { name: 'Mine now', kind: 'block' }],
    ['POST', `/api/hosted/recordings/${rid}/stop`],
    ['POST', `/api/hosted/recordings/${rid}/replay`, { macro_id: 1 }],
  ] as const) {
    const res = await r.call(method, url, payload, other);
    expect([method, url, res.status, res.body.details?.code]).toEqual([method, url, 404, 'not_found']);
  }
  // Nothing changed: the owner's recording is still there, with its one step, still recording.
  const mine = await r.get(rid);
  expect([mine.body.state, mine.body.steps.length]).toEqual(['recording', 1]);
  await r.stop(rid);
});

test('bad input is 422 and hostile input never a 500', async () => {
  const deviceId = await w.readyDevice();
  const rid = (await r.start(deviceId)).body.id as string;
  const bad: unknown[] = [
    {},
    { type: 'tap' },
    { type: 'tap', x: -1, y: 5 },
    { type: 'tap', x: 1.5, y: 5 },
    { type: 'tap', x: '10', y: 5, extra: true },
    { type: 'key', key: 'VOLUME_UP' },
    { type: 'text', text: '' },
    { type: 'text', text: 'x'.repeat(10_001) },
    { type: 'swipe', from: { x: 1 }, to: { x: 2, y: 2 } },
    { type: 'long_press', x: 1, y: 1, ms: 0 },
    { type: 'shake' },
    [],
  ];
  for (const body of bad) {
    const res = await r.input(rid, body);
    expect([JSON.stringify(body).slice(0, 40), res.status, res.body.details?.code]).toEqual([JSON.stringify(body).slice(0, 40), 422, 'validation_failed']);
  }
  // Points outside the screen: the driver refuses them as the tap route does.
  const outside = await r.input(rid, { type: 'tap', x: 5000, y: 5000 });
  expect(outside.status).toBe(422);
  expect((await r.check(rid, { x: 5000, y: 5000 })).status).toBe(422);
  for (const url of ['/api/hosted/recordings/rec_123', '/api/hosted/recordings/..%2F..%2Fetc', `/api/hosted/recordings/${rid}/steps/0/frame`, `/api/hosted/recordings/${rid}/steps/abc/candidates`]) {
    expect((await r.call('GET', url)).status, url).toBe(422);
  }
  expect((await r.call('GET', '/api/hosted/recordings/rec_000000000000000000000000')).status).toBe(404);
  expect((await r.call('PATCH', `/api/hosted/recordings/${rid}/steps/1`, { chosen: -1 })).status).toBe(422);
  expect((await r.save(rid, { name: 'x', kind: 'java' })).status).toBe(422);
  expect((await r.save(rid, { name: '   ', kind: 'block' })).status).toBe(422);
  const empty = await r.save(rid, { name: 'Nothing yet', kind: 'block' });
  expect([empty.status, empty.body.details.code]).toEqual([422, 'validation_failed']);
  expect((await r.replay(rid, { macro_id: 'one' })).status).toBe(422);
  const hostile: unknown[] = [
    'tap',
    { type: 'text', text: "'); DROP TABLE recordings; --" },
    { type: 'text', text: '"""\n\\x00\u0000\u2028 import os; os.system("id")' },
    JSON.parse('{"type":"tap","x":10,"y":10,"__proto__":{"polluted":true}}'),
  ];
  for (const body of hostile) {
    const res = await r.input(rid, body);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const saved = await r.save(rid, { name: '"""\\ hostile \u0007\n name', kind: 'python' });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  await r.stop(rid);
});
