// POST /api/executions/report: later reports of a run, snapshots, and concurrent reports.
import { describe, expect, test } from 'vitest';
import { useExecutionsHarness, t, report, keyGet, world, START, running, events, runCount, ok, type Body } from './harness.js';

useExecutionsHarness();

describe('POST /api/executions/report: later reports', () => {
  test.each(['completed', 'failed', 'stopped'] as const)('running → %s ends the run, computes duration_ms and emits its event', async (status) => {
    const w = await world();
    const first = await ok(await report(w.user, running(w)));
    const ended = await ok(
      await report(w.user, {
        ...running(w),
        execution_id: first.execution_id,
        status,
        ended_at: '2026-03-02T09:01:30.250Z',
        exit_code: status === 'completed' ? 0 : 1,
        ...(status === 'failed' ? { error_message: 'Traceback: x' } : {}),
      }),
    );
    expect(ended).toEqual({
      ...first,
      status,
      ended_at: '2026-03-02T09:01:30.250Z',
      duration_ms: 90_250,
      exit_code: status === 'completed' ? 0 : 1,
      ...(status === 'failed' ? { error_message: 'Traceback: x' } : {}),
    });
    const all = await events(w.user.id);
    expect(all.map((e) => e.type)).toEqual(['macro.started', `macro.${status}`]);
    expect(all[1].payload).toEqual({ id: all[1].event_id, type: `macro.${status}`, timestamp: expect.any(String), data: ended });
    expect(all[1].device_id).toBe(w.device.id);
    expect(await runCount(w, w.device.id)).toBe(1);
  });

  test('a later report keeps the first snapshot and started_at, whatever it sends', async () => {
    const w = await world();
    const first = await ok(await report(w.user, running(w)));
    const ended = await ok(
      await report(w.user, {
        execution_id: first.execution_id,
        status: 'completed',
        macro_id: w.block.id,
        device_id: w.device2.id,
        execution_type: 'block',
        started_at: '2026-03-02T09:00:30Z',
        ended_at: '2026-03-02T09:01:00Z',
      }),
    );
    expect(ended).toMatchObject({ macro_id: w.python.id, macro_name: 'Farm', device_id: w.device.id, execution_type: 'python', started_at: START, duration_ms: 60_000 });
    expect(await runCount(w, w.device2.id)).toBe(0);
  });

  test('running → running changes nothing but the proxy fields, and emits nothing', async () => {
    const w = await world();
    const body = running(w);
    const first = await ok(await report(w.user, body));
    expect(await ok(await report(w.user, body))).toEqual(first);
    const withProxy = await ok(await report(w.user, { ...body, started_at: '2026-03-02T09:05:00Z', proxy_exit_ip: '198.51.100.7', proxy_country: 'NL' }));
    expect(withProxy).toEqual({ ...first, proxy_exit_ip: '198.51.100.7', proxy_country: 'NL' });
    expect((await events(w.user.id)).map((e) => e.type)).toEqual(['macro.started']);
    expect(await runCount(w, w.device.id)).toBe(1);
  });

  test('an ended run cannot change again: 409 run_already_ended, no event, record unchanged', async () => {
    const w = await world();
    const body = running(w);
    await ok(await report(w.user, body));
    const ended = await ok(await report(w.user, { ...body, status: 'completed', ended_at: '2026-03-02T09:00:10Z', exit_code: 0 }));
    for (const change of [
      { status: 'failed', ended_at: '2026-03-02T09:00:20Z', exit_code: 1 },
      { status: 'completed', ended_at: '2026-03-02T09:00:10Z', exit_code: 0 },
      { status: 'running' },
      { status: 'running', proxy_country: 'FR' },
    ]) {
      const res = await report(w.user, { ...body, ...change });
      expect(res.statusCode).toBe(409);
      expect(res.json().details.code).toBe('run_already_ended');
    }
    expect((await keyGet(w.key, `/api/executions/${ended.id}`)).json()).toEqual(ended);
    expect((await events(w.user.id)).map((e) => e.type)).toEqual(['macro.started', 'macro.completed']);
  });

  test('ended_at before the stored started_at is 422, even when the later report sends a different started_at', async () => {
    const w = await world();
    const body = running(w);
    await ok(await report(w.user, body));
    const res = await report(w.user, { ...body, status: 'completed', started_at: '2026-03-02T08:00:00Z', ended_at: '2026-03-02T08:30:00Z' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors).toEqual([{ path: 'body.ended_at', message: 'must not be before started_at' }]);
    expect((await events(w.user.id)).map((e) => e.type)).toEqual(['macro.started']);
  });

  test('execution ids are per user: the same id from two users makes two runs', async () => {
    const a = await world();
    const b = await world();
    const body = running(a);
    const runA = await ok(await report(a.user, body));
    const runB = await ok(await report(b.user, { ...body, macro_id: b.python.id, device_id: b.device.id }));
    expect(runB.id).not.toBe(runA.id);
    expect(runB.device_name).toBe('Pixel');
  });
});

describe('snapshots', () => {
  test('renaming the device and macro, moving the device and deleting the macro leave history as it was', async () => {
    const w = await world();
    const body = running(w);
    const run = await ok(await report(w.user, body));
    const put = (url: string, payload: Body) => t.app.inject({ method: 'PUT', url, headers: w.user.auth, payload });
    expect((await put(`/api/macros/${w.python.id}`, { name: 'Renamed macro' })).statusCode).toBe(200);
    expect((await put(`/api/emulator/devices/${w.device.id}`, { name: 'Renamed device', group_id: null })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/macros/${w.python.id}`, headers: w.user.auth })).statusCode).toBe(204);
    expect((await keyGet(w.key, `/api/executions/${run.id}`)).json()).toEqual(run);

    // The run can still end after its macro is gone, and keeps the snapshot.
    const ended = await ok(await report(w.user, { ...body, status: 'stopped', ended_at: '2026-03-02T09:00:05Z' }));
    expect(ended).toMatchObject({ macro_id: w.python.id, macro_name: 'Farm', device_name: 'Pixel', device_port: 5555, group_id: w.device.group_id });
    const listed = (await keyGet(w.key, '/api/executions')).json().rows;
    expect(listed).toEqual([ended]);
    // But a new run needs a macro that exists.
    expect((await report(w.user, running(w))).statusCode).toBe(404);
  });
});

describe('concurrency', () => {
  test('simultaneous first reports of one execution_id make one run, one run_count and one macro.started', async () => {
    const w = await world();
    const body = running(w);
    const responses = await Promise.all(Array.from({ length: 10 }, () => report(w.user, body)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(responses.map((r) => r.json().id)).size).toBe(1);
    const rows = await t.db.kysely.selectFrom('executions').select('id').where('user_id', '=', w.user.id).execute();
    expect(rows).toHaveLength(1);
    expect(await runCount(w, w.device.id)).toBe(1);
    expect((await events(w.user.id)).map((e) => e.type)).toEqual(['macro.started']);
  });

  test('simultaneous ending reports: exactly one wins, the rest get 409, one terminal event', async () => {
    const w = await world();
    const body = running(w);
    await ok(await report(w.user, body));
    const statuses = ['completed', 'failed', 'stopped'];
    const responses = await Promise.all(
      Array.from({ length: 9 }, (_, i) => report(w.user, { ...body, status: statuses[i % 3], ended_at: `2026-03-02T09:00:0${i}Z`, exit_code: i })),
    );
    const winners = responses.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 409 && r.json().details.code === 'run_already_ended')).toHaveLength(8);
    const winner = winners[0].json();
    const all = await events(w.user.id);
    expect(all.map((e) => e.type)).toEqual(['macro.started', `macro.${winner.status}`]);
    expect(all[1].payload.data).toEqual(winner);
    expect((await keyGet(w.key, `/api/executions/${winner.id}`)).json()).toEqual(winner);
  });

  test('simultaneous first reports that have already ended: one run, one winner, two events', async () => {
    const w = await world();
    const body = running(w, { status: 'completed', ended_at: '2026-03-02T09:00:03Z', exit_code: 0 });
    const responses = await Promise.all(Array.from({ length: 6 }, () => report(w.user, body)));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await events(w.user.id)).map((e) => e.type)).toEqual(['macro.started', 'macro.completed']);
    expect(await runCount(w, w.device.id)).toBe(1);
  });
});
