// Run history: execution reporting (application), its transitions, snapshots, run_count and
// events; the key routes that list and read runs, with their filters, paging and scope.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, type SignedUpUser, signUp, withKey } from '../../helpers/users.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Body = Record<string, unknown>;
let counter = 0;
const nextExecutionId = () => `exec-${++counter}-${Date.now().toString(36)}`;

const post = (user: SignedUpUser, url: string, payload: Body) => t.app.inject({ method: 'POST', url, headers: user.auth, payload });
const report = (user: SignedUpUser, payload: Body) => post(user, '/api/executions/report', payload);

async function created(user: SignedUpUser, url: string, payload: Body) {
  const res = await post(user, url, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Keys are limited to 120 requests a minute; a second per request keeps well below. */
async function keyGet(key: string, url: string) {
  t.clock.advance(1000);
  return t.app.inject({ url, headers: withKey(key) });
}

interface World {
  user: SignedUpUser;
  key: string;
  /** devices:control, to read run_count through the device list. */
  deviceKey: string;
  python: { id: number; name: string };
  block: { id: number; name: string };
  device: { id: number; name: string; port: number; group_id: number };
  device2: { id: number; name: string; port: number };
}

async function world(): Promise<World> {
  const user = await signUp(t.app);
  const group = await created(user, '/api/emulator/groups', { name: 'Bench', kind: 'byod' });
  return {
    user,
    key: (await createKey(t.app, user, { scopes: ['runs:read'] })).key,
    deviceKey: (await createKey(t.app, user, { scopes: ['devices:control'] })).key,
    python: await created(user, '/api/macros', { name: 'Farm', kind: 'python' }),
    block: await created(user, '/api/macros', { name: 'Tapper', kind: 'block' }),
    device: await created(user, '/api/emulator/devices', { name: 'Pixel', port: 5555, group_id: group.id }),
    device2: await created(user, '/api/emulator/devices', { name: 'Galaxy', port: 5557 }),
  };
}

const START = '2026-03-02T09:00:00.000Z';
const running = (w: World, extra: Body = {}): Body => ({
  execution_id: nextExecutionId(),
  status: 'running',
  macro_id: w.python.id,
  device_id: w.device.id,
  execution_type: 'python',
  started_at: START,
  ...extra,
});

async function events(userId: number) {
  const rows = await t.db.kysely.selectFrom('events').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((row) => ({ type: row.type, device_id: row.device_id, event_id: row.event_id, payload: JSON.parse(row.payload) }));
}

async function runCount(w: World, deviceId: number): Promise<number> {
  const res = await keyGet(w.deviceKey, '/api/emulator/devices');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().rows.find((d: { id: number }) => d.id === deviceId).run_count;
}

async function ok(res: Awaited<ReturnType<typeof report>>) {
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

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

describe('GET /api/executions', () => {
  let w: World;
  /** Runs by name, as answered when reported. */
  const runs: Record<string, Body & { id: number }> = {};
  const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

  beforeAll(async () => {
    w = await world();
    const plan: [string, number, Body][] = [
      ['a', 0, { status: 'completed', ended_at: at(1), exit_code: 0 }],
      ['b', 10, { device_id: w.device2.id, status: 'failed', ended_at: at(11), exit_code: 1 }],
      ['c', 20, { macro_id: w.block.id, execution_type: 'block' }],
      ['d', 20, { status: 'stopped', ended_at: at(25) }],
      ['e', 30, { device_id: w.device2.id, macro_id: w.block.id, execution_type: 'block', status: 'completed', ended_at: at(31) }],
    ];
    for (const [name, minute, extra] of plan) runs[name] = await ok(await report(w.user, running(w, { started_at: at(minute), ...extra })));
    // Someone else's run never shows.
    const other = await world();
    await ok(await report(other.user, running(other, { started_at: at(15) })));
  });

  const list = async (query = '') => {
    const res = await keyGet(w.key, `/api/executions${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const names = (page: { rows: { id: number }[] }) => page.rows.map((row) => Object.keys(runs).find((k) => runs[k].id === row.id));

  test('newest first; runs started at the same moment come newest id first', async () => {
    const page = await list();
    expect(names(page)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(page).toMatchObject({ page: 1, page_size: 50, total_rows: 5, total_pages: 1 });
    expect(page.rows[0]).toEqual(runs.e);
  });

  test.each([
    ['?status=completed', ['e', 'a']],
    ['?status=running', ['c']],
    ['?status=stopped', ['d']],
    ['?device_id=DEVICE2', ['e', 'b']],
    ['?macro_id=BLOCK', ['e', 'c']],
    ['?macro_id=BLOCK&status=running', ['c']],
    ['?since=2026-03-01T10:20:00Z', ['e', 'd', 'c']],
    ['?until=2026-03-01T10:10:00Z', ['b', 'a']],
    ['?since=2026-03-01T10:10:00Z&until=2026-03-01T10:20:00Z', ['d', 'c', 'b']],
    ['?since=2026-03-01T10:10:00.001Z&until=2026-03-01T10:19:59.999Z', []],
    ['?since=2026-03-01T11:20:00%2B01:00&until=2026-03-01T11:20:00%2B01:00', ['d', 'c']],
    ['?device_id=DEVICE2&since=2026-03-01T10:11:00Z', ['e']],
  ])('%s lists %j with matching totals', async (query, expected) => {
    const page = await list(query.replace('DEVICE2', String(w.device2.id)).replace('BLOCK', String(w.block.id)));
    expect(names(page)).toEqual(expected);
    expect(page.total_rows).toBe(expected.length);
  });

  test('pages: totals, the last partial page, and a page past the end', async () => {
    const first = await list('?page_size=2');
    expect(first).toMatchObject({ page: 1, page_size: 2, total_rows: 5, total_pages: 3 });
    expect(names(first)).toEqual(['e', 'd']);
    expect(names(await list('?page_size=2&page=2'))).toEqual(['c', 'b']);
    const last = await list('?page_size=2&page=3');
    expect(names(last)).toEqual(['a']);
    const past = await list('?page_size=2&page=4');
    expect(past).toEqual({ page: 4, page_size: 2, total_rows: 5, total_pages: 3, rows: [] });
    expect(await list('?status=completed&page_size=1&page=2')).toMatchObject({ total_rows: 2, total_pages: 2, rows: [runs.a] });
  });

  test.each([
    ['?status=bogus', 'query.status'],
    ['?page_size=201', 'query.page_size'],
    ['?page_size=0', 'query.page_size'],
    ['?page=0', 'query.page'],
    ['?since=2026-03-01', 'query.since'],
    ['?until=last%20week', 'query.until'],
    ['?device_id=abc', 'query.device_id'],
    ['?macro_id=100000000000000000000', 'query.macro_id'],
    ['?since=2026-03-01T10:30:00Z&until=2026-03-01T10:00:00Z', 'query.since'],
    ['?colour=red', 'query.colour'],
  ])('%s is 422 naming %s', async (query, path) => {
    const res = await keyGet(w.key, `/api/executions${query}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().details.code).toBe('validation_failed');
    expect(res.json().details.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  test("GET /api/executions/{id}: someone else's or a missing run is 404; a non-numeric id is 422", async () => {
    const other = await world();
    expect((await keyGet(other.key, `/api/executions/${runs.a.id}`)).statusCode).toBe(404);
    expect((await keyGet(other.key, '/api/executions')).json()).toMatchObject({ total_rows: 0, rows: [] });
    const missing = await keyGet(w.key, '/api/executions/99999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().details.code).toBe('not_found');
    expect((await keyGet(w.key, '/api/executions/report')).statusCode).toBe(422);
    // Larger than any id the database can hold: refused before the query.
    expect((await keyGet(w.key, '/api/executions/100000000000000000000')).statusCode).toBe(422);
  });

  test('a key with only devices:control gets 403 insufficient_scope; a full-access key reads', async () => {
    const devicesOnly = (await createKey(t.app, w.user, { scopes: ['devices:control'] })).key;
    for (const url of ['/api/executions', `/api/executions/${runs.a.id}`, `/api/executions/${runs.a.execution_id}/logs`]) {
      const res = await keyGet(devicesOnly, url);
      expect([url, res.statusCode, res.json().details]).toEqual([url, 403, { code: 'insufficient_scope', required_scopes: ['runs:read'] }]);
    }
    const full = (await createKey(t.app, w.user)).key;
    expect((await keyGet(full, `/api/executions/${runs.a.id}`)).json()).toEqual(runs.a);
  });
});
