// POST /api/executions/report: the first report of a run creates it (fields, events, run counts, refusals).
import { describe, expect, test } from 'vitest';
import { createKey, withKey } from '../../helpers/users.js';
import { useExecutionsHarness, t, report, keyGet, world, START, running, events, runCount, ok } from './harness.js';

useExecutionsHarness();

describe('POST /api/executions/report: creating a run', () => {
  test('the first report creates the run with the macro and device as they are now, and emits macro.started', async () => {
    const w = await world();
    const body = running(w, { proxy_exit_ip: '203.0.113.9', proxy_country: 'DE' });
    const reportedAt = new Date(t.clock.now()).toISOString();
    const run = await ok(await report(w.user, body));
    expect(run).toEqual({
      id: expect.any(Number),
      execution_id: body.execution_id,
      status: 'running',
      macro_id: w.python.id,
      macro_name: 'Farm',
      device_id: w.device.id,
      device_name: 'Pixel',
      device_port: 5555,
      group_id: w.device.group_id,
      execution_type: 'python',
      started_at: START,
      proxy_exit_ip: '203.0.113.9',
      proxy_country: 'DE',
    });
    // The same record through the key route.
    expect((await keyGet(w.key, `/api/executions/${run.id}`)).json()).toEqual(run);
    expect(await runCount(w, w.device.id)).toBe(1);
    expect(await runCount(w, w.device2.id)).toBe(0);

    const [event, ...more] = await events(w.user.id);
    expect(more).toEqual([]);
    expect(event.type).toBe('macro.started');
    expect(event.device_id).toBe(w.device.id);
    expect(event.payload).toEqual({ id: event.event_id, type: 'macro.started', timestamp: reportedAt, data: run });
    expect(event.event_id).toMatch(/^evt_/);
  });

  test('a started_at with an offset is stored as the same instant, answered in UTC', async () => {
    const w = await world();
    const run = await ok(await report(w.user, running(w, { started_at: '2026-03-02T11:00:00+02:00' })));
    expect(run.started_at).toBe(START);
  });

  test('a block macro takes execution_type block; a mismatch is 422 and creates nothing', async () => {
    const w = await world();
    const run = await ok(await report(w.user, running(w, { macro_id: w.block.id, execution_type: 'block' })));
    expect(run).toMatchObject({ macro_name: 'Tapper', execution_type: 'block' });
    for (const [macroId, type] of [
      [w.block.id, 'python'],
      [w.python.id, 'block'],
    ] as const) {
      const res = await report(w.user, running(w, { macro_id: macroId, execution_type: type }));
      expect(res.statusCode).toBe(422);
      expect(res.json().details.errors.map((e: { path: string }) => e.path)).toEqual(['body.execution_type']);
    }
    expect(await runCount(w, w.device.id)).toBe(1);
    expect((await events(w.user.id)).map((e) => e.type)).toEqual(['macro.started']);
  });

  test('a first report that has already ended records it and emits macro.started, then the terminal event', async () => {
    const w = await world();
    const run = await ok(
      await report(w.user, running(w, { status: 'failed', ended_at: '2026-03-02T09:00:02.500Z', exit_code: 3, error_message: 'boom' })),
    );
    expect(run).toMatchObject({ status: 'failed', ended_at: '2026-03-02T09:00:02.500Z', duration_ms: 2500, exit_code: 3, error_message: 'boom' });
    const [started, failed, ...more] = await events(w.user.id);
    expect(more).toEqual([]);
    expect(started.type).toBe('macro.started');
    // macro.started shows the run as it was while running.
    const whileRunning = Object.fromEntries(Object.entries(run).filter(([k]) => !['ended_at', 'duration_ms', 'exit_code', 'error_message'].includes(k)));
    expect(started.payload.data).toEqual({ ...whileRunning, status: 'running' });
    expect(started.payload.data).not.toHaveProperty('ended_at');
    expect(failed.type).toBe('macro.failed');
    expect(failed.payload.data).toEqual(run);
    expect(await runCount(w, w.device.id)).toBe(1);
  });

  test("someone else's macro or device, or a missing one, is 404 and creates nothing", async () => {
    const w = await world();
    const other = await world();
    for (const extra of [{ macro_id: other.python.id }, { device_id: other.device.id }, { macro_id: 999_999 }, { device_id: 999_999 }]) {
      const res = await report(w.user, running(w, extra));
      expect(res.statusCode).toBe(404);
      expect(res.json().details.code).toBe('not_found');
    }
    expect(await events(w.user.id)).toEqual([]);
    expect(await runCount(other, other.device.id)).toBe(0);
    const rows = await t.db.kysely.selectFrom('executions').select('id').where('user_id', '=', w.user.id).execute();
    expect(rows).toEqual([]);
  });

  test.each([
    [{ execution_id: 'has space' }, 'body.execution_id'],
    [{ execution_id: 'x'.repeat(65) }, 'body.execution_id'],
    [{ execution_id: '' }, 'body.execution_id'],
    [{ status: 'paused' }, 'body.status'],
    [{ execution_type: 'shell' }, 'body.execution_type'],
    [{ started_at: '2026-03-02' }, 'body.started_at'],
    [{ started_at: 'yesterday' }, 'body.started_at'],
    [{ status: 'completed' }, 'body.ended_at'],
    [{ status: 'stopped', ended_at: '2026-03-02T08:59:59.999Z' }, 'body.ended_at'],
    [{ ended_at: '2026-03-02T09:00:01Z' }, 'body.ended_at'],
    [{ exit_code: 0 }, 'body.exit_code'],
    [{ error_message: 'nope' }, 'body.error_message'],
    [{ status: 'completed', ended_at: '2026-03-02T09:00:01Z', exit_code: 1.5 }, 'body.exit_code'],
    [{ proxy_exit_ip: '300.1.1.1' }, 'body.proxy_exit_ip'],
    [{ proxy_exit_ip: 'example.com' }, 'body.proxy_exit_ip'],
    [{ proxy_country: 'de' }, 'body.proxy_country'],
    [{ proxy_country: 'DEU' }, 'body.proxy_country'],
    [{ macro_id: '1' }, 'body.macro_id'],
    [{ device_id: 1e20 }, 'body.device_id'],
    [{ colour: 'red' }, 'body.colour'],
  ])('%j is 422 naming %s; nothing is written', async (extra, path) => {
    const w = await world();
    const res = await report(w.user, running(w, extra));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details.code).toBe('validation_failed');
    expect(res.json().details.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await events(w.user.id)).toEqual([]);
    expect(await runCount(w, w.device.id)).toBe(0);
  });

  test('IPv6 exit addresses are accepted', async () => {
    const w = await world();
    const run = await ok(await report(w.user, running(w, { proxy_exit_ip: '2001:db8::1' })));
    expect(run.proxy_exit_ip).toBe('2001:db8::1');
  });

  test('a long error_message is cut to 4000 characters', async () => {
    const w = await world();
    const run = await ok(await report(w.user, running(w, { status: 'failed', ended_at: START, error_message: 'e'.repeat(5000) })));
    expect(run.error_message).toBe('e'.repeat(4000));
    expect(run.duration_ms).toBe(0);
  });

  test('a key cannot report: the route belongs to the application', async () => {
    const w = await world();
    const full = (await createKey(t.app, w.user)).key;
    const res = await t.app.inject({ method: 'POST', url: '/api/executions/report', headers: withKey(full), payload: running(w) });
    expect(res.statusCode).toBe(401);
    expect(res.json().details.code).toBe('missing_credentials');
  });
});
