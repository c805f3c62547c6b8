// Leases through the SDK client on the real services: device_lease starts a stopped cloud
// device through the lifecycle job (the app's own worker) and waits until it is ready; the
// lease extends, ends at release, at expiry and when the device stops; a device leased by
// another client is busy; another account's device and lease are never found. The tools
// that drive a leased device are in device-input-tools.test.ts.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { call, data, failure } from './helpers/client.js';
import { useMcpWorld } from './helpers/world.js';

const w = useMcpWorld();

type Lease = { lease_id: string; device_id: number; expires_at: string };
type Listed = { id: number; name: string; hosted_state: string; is_hosted: boolean; lease_holder?: string };

const listed = async (client: Client, id: number) => data<{ items: Listed[] }>(await call(client, 'device_list')).items.find((d) => d.id === id);
const deviceState = async (id: number) => (await w.t.db.kysely.selectFrom('devices').select('hosted_state').where('id', '=', id).executeTakeFirstOrThrow()).hosted_state;
const leaseRows = (id: number) => w.t.db.kysely.selectFrom('device_leases').selectAll().where('device_id', '=', id).execute();

describe('leases', () => {
  test('a lease starts a stopped device through the lifecycle and answers once it is ready; leasing again extends it', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Sim' });
    const client = await w.clientFor(w.owner, ['devices:control']);
    expect(await listed(client, device.id)).toMatchObject({ id: device.id, name: 'Sim', is_hosted: true, hosted_state: 'stopped', run_count: 0 });
    expect(await listed(client, device.id)).not.toHaveProperty('lease_holder');

    const lease = data<Lease>(await call(client, 'device_lease', { device_id: device.id, minutes: 5 }));
    expect(lease).toEqual({ lease_id: expect.stringMatching(/^lease_[0-9a-f]{24}$/), device_id: device.id, expires_at: new Date(w.t.clock.now() + 5 * 60_000).toISOString() });
    // The lifecycle job placed and booted it: the device is ready and has a place on the host.
    expect(await deviceState(device.id)).toBe('ready');
    expect(await w.t.app.modules.devices.services.host.placement(device.id)).toMatchObject({ status: 'ready' });
    expect(await listed(client, device.id)).toMatchObject({ hosted_state: 'ready', lease_holder: 'self' });

    w.t.clock.advance(60_000);
    const again = data<Lease>(await call(client, 'device_lease', { device_id: device.id }));
    expect(again).toEqual({ lease_id: lease.lease_id, device_id: device.id, expires_at: new Date(w.t.clock.now() + 15 * 60_000).toISOString() });
    expect(Date.parse(again.expires_at)).toBeGreaterThan(Date.parse(lease.expires_at));
    expect(await leaseRows(device.id)).toHaveLength(1);

    expect((await call(client, 'device_release', { lease_id: lease.lease_id })).content[0]).toMatchObject({ text: `Released ${lease.lease_id}.` });
    expect(await leaseRows(device.id)).toHaveLength(0);
    for (const tool of ['device_screenshot', 'device_release']) {
      expect(failure(await call(client, tool, { lease_id: lease.lease_id })), tool).toMatchObject({ code: 'not_found' });
    }
    // Released, the device stays started; a new lease is a new id.
    expect(await listed(client, device.id)).toMatchObject({ hosted_state: 'ready' });
    expect(await listed(client, device.id)).not.toHaveProperty('lease_holder');
    const fresh = data<Lease>(await call(client, 'device_lease', { device_id: device.id }));
    expect(fresh.lease_id).not.toBe(lease.lease_id);
  });

  test('an expired lease is not found, and the device is free again', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Expiring' });
    const client = await w.clientFor(w.owner, ['devices:control']);
    const other = await w.clientFor(w.owner, ['devices:control']);
    const { lease_id } = data<Lease>(await call(client, 'device_lease', { device_id: device.id, minutes: 1 }));
    expect(failure(await call(other, 'device_lease', { device_id: device.id }))).toMatchObject({ code: 'device_busy' });
    w.t.clock.advance(60_001);
    for (const tool of ['device_screenshot', 'device_ui_tree', 'app_list', 'device_release']) {
      expect(failure(await call(client, tool, { lease_id })), tool).toMatchObject({ code: 'not_found', text: expect.stringMatching(/lease/) });
    }
    expect(await listed(client, device.id)).not.toHaveProperty('lease_holder');
    expect(data<Lease>(await call(other, 'device_lease', { device_id: device.id })).lease_id).not.toBe(lease_id);
  });

  test('stopping the device ends its lease; a new lease starts it again', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Stopped under me' });
    const client = await w.clientFor(w.owner, ['devices:control']);
    const { lease_id } = data<Lease>(await call(client, 'device_lease', { device_id: device.id }));
    const stop = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${device.id}/stop`, headers: w.owner.auth });
    expect(stop.statusCode, stop.body).toBe(202);
    await expect.poll(() => deviceState(device.id), { timeout: 10_000, interval: 20 }).toBe('stopped');
    expect(await leaseRows(device.id)).toHaveLength(0);
    expect(failure(await call(client, 'device_ui_tree', { lease_id }))).toMatchObject({ code: 'not_found' });
    const next = data<Lease>(await call(client, 'device_lease', { device_id: device.id }));
    expect(next.lease_id).not.toBe(lease_id);
    expect(await deviceState(device.id)).toBe('ready');
  });

  test('a device leased by another client is busy, and its lease_holder is other', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Shared' });
    const first = await w.clientFor(w.owner, ['devices:control']);
    const second = await w.clientFor(w.owner, ['devices:control']);
    const { lease_id } = data<Lease>(await call(first, 'device_lease', { device_id: device.id }));
    expect(failure(await call(second, 'device_lease', { device_id: device.id }))).toMatchObject({ code: 'device_busy', text: expect.stringMatching(/lease/) });
    expect(await listed(second, device.id)).toMatchObject({ lease_holder: 'other' });
    expect(await listed(first, device.id)).toMatchObject({ lease_holder: 'self' });
    expect((await call(first, 'device_ui_tree', { lease_id })).isError).toBeFalsy();
  });

  test('two clients leasing one stopped device at once: one lease, the other busy', async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Raced' });
    const [a, b] = [await w.clientFor(w.owner, ['devices:control']), await w.clientFor(w.owner, ['devices:control'])];
    const results = await Promise.all([call(a, 'device_lease', { device_id: device.id }), call(b, 'device_lease', { device_id: device.id })]);
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    expect(failure(results.find((r) => r.isError)!)).toMatchObject({ code: 'device_busy' });
    expect(await leaseRows(device.id)).toHaveLength(1);
    // The same client twice at once: one lease, answered to both.
    const other = await createCloudDevice(w.t.app, w.owner, { name: 'Raced twice' });
    const twice = await Promise.all([call(a, 'device_lease', { device_id: other.id }), call(a, 'device_lease', { device_id: other.id })]);
    expect(new Set(twice.map((r) => data<Lease>(r).lease_id)).size).toBe(1);
  });

  test("another account's device and lease are not found", async () => {
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Mine' });
    const mine = await w.clientFor(w.owner, ['devices:control']);
    const { lease_id } = data<Lease>(await call(mine, 'device_lease', { device_id: device.id }));
    const theirs = await w.clientFor(w.stranger, ['devices:control']);
    expect(failure(await call(theirs, 'device_lease', { device_id: device.id }))).toMatchObject({ code: 'not_found' });
    for (const tool of ['device_screenshot', 'device_ui_tree', 'device_read_text', 'app_list', 'device_release']) {
      expect(failure(await call(theirs, tool, { lease_id })), tool).toMatchObject({ code: 'not_found' });
    }
    expect(failure(await call(theirs, 'device_tap', { lease_id, x: 1, y: 1 }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(theirs, 'device_type', { lease_id, text: 'x' }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(theirs, 'app_open', { lease_id, package: DEMO_APP_PACKAGE }))).toMatchObject({ code: 'not_found' });
    expect(data<{ items: Listed[] }>(await call(theirs, 'device_list')).items.map((d) => d.id)).not.toContain(device.id);
    // The owner's lease is untouched.
    expect((await call(mine, 'device_ui_tree', { lease_id })).isError).toBeFalsy();
  });
});
