// GET /api/executions and GET /api/executions/{id}: paging, filters, ownership and scope.
import { beforeAll, describe, expect, test } from 'vitest';
import { createKey } from '../../helpers/users.js';
import { useExecutionsHarness, t, report, keyGet, world, running, ok, type Body, type World } from './harness.js';

useExecutionsHarness();

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
