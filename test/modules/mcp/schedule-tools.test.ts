// The schedule tools (scope macros:run) through the official MCP SDK client: schedule_create
// answers the schedule with its next fire times, schedule_list lists it, schedule_cancel
// disables it; bad rules name their field, another account's ids are never found, and a key
// without macros:run neither sees nor calls them.
import { describe, expect, test } from 'vitest';
import { createCloudDevice, createMacro } from '../../helpers/resources.js';
import { call, data, failure } from './helpers/client.js';
import { useMcpWorld } from './helpers/world.js';

const w = useMcpWorld();

type Schedule = { id: number; enabled: boolean; next_fires?: string[]; disabled_reason?: string; device_id?: number; macro_id?: number; timezone: string };

describe('schedule tools', () => {
  test('create, list and cancel; the application reads the same schedule', async () => {
    const macro = await createMacro(w.t.app, w.owner, { name: 'Nightly', kind: 'block' });
    const device = await createCloudDevice(w.t.app, w.owner, { name: 'Night phone' });
    const client = await w.clientFor(w.owner, ['macros:run']);
    const created = data<Schedule>(await call(client, 'schedule_create', { macro_id: macro.id, device_id: device.id, cron: '0 3 * * *', timezone: 'Asia/Kolkata' }));
    expect(created).toMatchObject({ macro_id: macro.id, device_id: device.id, timezone: 'Asia/Kolkata', enabled: true });
    expect(created.next_fires).toHaveLength(5);
    expect(created.next_fires!.every((at) => at.endsWith('T03:00:00+05:30'))).toBe(true);
    const rest = await w.t.app.inject({ url: `/api/schedules/${created.id}`, headers: w.owner.auth });
    expect(rest.json()).toEqual(created);

    const listed = data<{ items: Schedule[] }>(await call(client, 'schedule_list'));
    expect(listed.items.map((s) => s.id)).toContain(created.id);

    const cancelled = data<Schedule>(await call(client, 'schedule_cancel', { schedule_id: created.id }));
    expect(cancelled).toMatchObject({ id: created.id, enabled: false });
    expect(cancelled.next_fires).toBeUndefined();
    expect(cancelled.disabled_reason).toBeUndefined();
    // Cancelling again answers the same disabled schedule.
    expect(data<Schedule>(await call(client, 'schedule_cancel', { schedule_id: created.id }))).toMatchObject({ id: created.id, enabled: false });
  });

  test('a bad cron or zone names its field; nothing is created', async () => {
    const macro = await createMacro(w.t.app, w.owner, { kind: 'block' });
    const device = await createCloudDevice(w.t.app, w.owner);
    const client = await w.clientFor(w.owner, ['macros:run']);
    const before = data<{ items: Schedule[] }>(await call(client, 'schedule_list')).items.length;
    const cron = failure(await call(client, 'schedule_create', { macro_id: macro.id, device_id: device.id, cron: '0 0 0 * * *' }));
    expect(cron.code).toBe('validation_failed');
    expect(cron.text).toContain('body.cron');
    const zone = failure(await call(client, 'schedule_create', { macro_id: macro.id, device_id: device.id, cron: '0 * * * *', timezone: 'Nowhere/City' }));
    expect(zone.code).toBe('validation_failed');
    expect(zone.text).toContain('body.timezone');
    const never = failure(await call(client, 'schedule_create', { macro_id: macro.id, device_id: device.id, cron: '0 0 30 2 *' }));
    expect(never.code).toBe('validation_failed');
    expect(never.text).toContain('body.cron');
    expect(never.text).toContain('never fires');
    expect(data<{ items: Schedule[] }>(await call(client, 'schedule_list')).items).toHaveLength(before);
  });

  test("another account's macro, device and schedule are not found", async () => {
    const theirMacro = await createMacro(w.t.app, w.stranger, { kind: 'block' });
    const theirDevice = await createCloudDevice(w.t.app, w.stranger);
    const mine = await createMacro(w.t.app, w.owner, { kind: 'block' });
    const myDevice = await createCloudDevice(w.t.app, w.owner);
    const theirs = data<Schedule>(await call(await w.clientFor(w.stranger, ['macros:run']), 'schedule_create', { macro_id: theirMacro.id, device_id: theirDevice.id, cron: '0 * * * *' }));
    const client = await w.clientFor(w.owner, ['macros:run']);
    expect(failure(await call(client, 'schedule_create', { macro_id: theirMacro.id, device_id: myDevice.id, cron: '0 * * * *' })).code).toBe('not_found');
    expect(failure(await call(client, 'schedule_create', { macro_id: mine.id, device_id: theirDevice.id, cron: '0 * * * *' })).code).toBe('not_found');
    expect(failure(await call(client, 'schedule_cancel', { schedule_id: theirs.id })).code).toBe('not_found');
    expect(data<{ items: Schedule[] }>(await call(client, 'schedule_list')).items.map((s) => s.id)).not.toContain(theirs.id);
    const still = await w.t.app.inject({ url: `/api/schedules/${theirs.id}`, headers: w.stranger.auth });
    expect(still.json().enabled).toBe(true);
  });

  test('a key without macros:run does not see the tools, and calling one answers insufficient_scope', async () => {
    const client = await w.clientFor(w.owner, ['devices:control']);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('schedule_create');
    const refused = failure(await call(client, 'schedule_list'));
    expect(refused.code).toBe('insufficient_scope');
    expect(refused.text).toContain('macros:run');
    const full = await w.clientFor(w.owner, ['macros:run']);
    expect((await full.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['schedule_create', 'schedule_list', 'schedule_cancel']));
  });
});
