// Run logs: the cursor contract of GET /api/executions/{execution_id}/logs (the newest window, the cursor, refusals).
import { describe, expect, test } from 'vitest';
import { appendLogBatch } from '../../../src/modules/run-logs/store.js';
import { createKey, signUp } from '../../helpers/users.js';
import { useRunLogsHarness, t, user, newRun, linesFrom, appendSizes, readLogs, logs, follow } from './harness.js';

useRunLogsHarness();

describe('GET /api/executions/{execution_id}/logs: the newest window', () => {
  test('a run with no logs (a local run) answers no lines and last_seq 0', async () => {
    const { executionId } = await newRun();
    expect(await logs(executionId)).toEqual({ execution_id: executionId, lines: [], last_seq: 0 });
    expect(await logs(executionId, '?since_seq=0&max_lines=5')).toEqual({ execution_id: executionId, lines: [], last_seq: 0 });
    expect(await logs(executionId, '?since_seq=3')).toEqual({ execution_id: executionId, lines: [], last_seq: 3 });
  });

  test('default: the newest 200 lines, starting inside a batch; last_seq is the newest batch', async () => {
    const { pk, executionId } = await newRun();
    await appendSizes(pk, [150, 150, 150]);
    const page = await logs(executionId);
    expect(page).toEqual({ execution_id: executionId, lines: linesFrom(251, 200), last_seq: 3 });
  });

  test('max_lines picks the window size; fewer lines than asked returns them all', async () => {
    const { pk, executionId } = await newRun();
    await appendSizes(pk, [5, 1, 7]);
    expect(await logs(executionId, '?max_lines=1')).toMatchObject({ lines: ['line 13'], last_seq: 3 });
    expect(await logs(executionId, '?max_lines=8')).toMatchObject({ lines: linesFrom(6, 8), last_seq: 3 });
    expect(await logs(executionId, '?max_lines=1000')).toMatchObject({ lines: linesFrom(1, 13), last_seq: 3 });
  });

  test('up to 1000 lines across full batches', async () => {
    const { pk, executionId } = await newRun();
    await appendSizes(pk, [1000, 1000, 3]);
    expect(await logs(executionId, '?max_lines=1000')).toMatchObject({ lines: linesFrom(1004, 1000), last_seq: 3 });
  });
});

describe('GET /api/executions/{execution_id}/logs: the cursor', () => {
  test('since_seq returns whole batches after it, oldest first, as many as fit', async () => {
    const { pk, executionId } = await newRun();
    await appendSizes(pk, [3, 4, 5, 6]);
    expect(await logs(executionId, '?since_seq=1&max_lines=9')).toMatchObject({ lines: linesFrom(4, 9), last_seq: 3 });
    expect(await logs(executionId, '?since_seq=1&max_lines=8')).toMatchObject({ lines: linesFrom(4, 4), last_seq: 2 });
    expect(await logs(executionId, '?since_seq=3')).toMatchObject({ lines: linesFrom(13, 6), last_seq: 4 });
    // Nothing after the newest batch, or a cursor from the future: no lines, the cursor back.
    expect(await logs(executionId, '?since_seq=4')).toMatchObject({ lines: [], last_seq: 4 });
    expect(await logs(executionId, '?since_seq=99')).toMatchObject({ lines: [], last_seq: 99 });
  });

  test('a batch larger than max_lines comes whole, so the cursor always moves', async () => {
    const { pk, executionId } = await newRun();
    await appendSizes(pk, [2, 50, 3]);
    expect(await logs(executionId, '?since_seq=1&max_lines=10')).toMatchObject({ lines: linesFrom(3, 50), last_seq: 2 });
    expect(await logs(executionId, '?since_seq=2&max_lines=10')).toMatchObject({ lines: linesFrom(53, 3), last_seq: 3 });
  });

  test('tailing: last_seq passed back returns only new lines, none skipped or repeated, even when more than max_lines arrived', async () => {
    const { pk, executionId } = await newRun();
    let next = await appendSizes(pk, [40, 40]);
    const seen: string[] = [];
    const first = await logs(executionId, '?max_lines=50');
    expect(first).toMatchObject({ lines: linesFrom(31, 50), last_seq: 2 });
    seen.push(...linesFrom(1, 30), ...first.lines); // the tail started at line 31

    // Nothing new yet.
    expect(await logs(executionId, `?since_seq=${first.last_seq}&max_lines=50`)).toMatchObject({ lines: [], last_seq: 2 });

    // 430 lines arrive in nine batches while the reader is away: far more than max_lines.
    next = await appendSizes(pk, [30, 30, 30, 100, 10, 10, 10, 200, 10], next);
    const reads = await follow(executionId, 50, first.last_seq);
    expect(reads.map((r) => r.lines.length)).toEqual([30, 30, 30, 100, 30, 200, 10]);
    expect(reads.map((r) => r.last_seq)).toEqual([3, 4, 5, 6, 9, 10, 11]);
    seen.push(...reads.flatMap((r) => r.lines));
    expect(seen).toEqual(linesFrom(1, next - 1));
  });

  test('a reader following while a writer appends concurrently sees every line once, in order', async () => {
    const { pk, executionId } = await newRun();
    const sizes = Array.from({ length: 25 }, (_, i) => 1 + ((i * 37) % 60));
    const total = sizes.reduce((a, b) => a + b, 0);
    let next = await appendSizes(pk, [sizes[0]]);
    const writer = (async () => {
      for (const size of sizes.slice(1)) next = await appendSizes(pk, [size], next);
    })();
    let done = false;
    void writer.then(() => (done = true));
    // The newest window first (everything written so far fits in 1000 lines), then the cursor.
    const window = await logs(executionId, '?max_lines=1000');
    expect(window.lines[0]).toBe('line 1');
    const seen = [...window.lines];
    let cursor = window.last_seq;
    for (;;) {
      const finished = done;
      const page = await logs(executionId, `?since_seq=${cursor}&max_lines=40`);
      seen.push(...page.lines);
      cursor = page.last_seq;
      if (finished && page.lines.length === 0) break;
    }
    await writer;
    expect(seen).toEqual(linesFrom(1, total));
    expect(cursor).toBe(25);
  });
});

describe('GET /api/executions/{execution_id}/logs: refusals', () => {
  test.each([
    ['?max_lines=0', 'query.max_lines'],
    ['?max_lines=1001', 'query.max_lines'],
    ['?max_lines=ten', 'query.max_lines'],
    ['?since_seq=-1', 'query.since_seq'],
    ['?since_seq=1.5', 'query.since_seq'],
    ['?tail=1', 'query.tail'],
  ])('%s is 422 naming %s', async (query, path) => {
    const { executionId } = await newRun();
    const res = await readLogs(executionId, query);
    expect(res.statusCode).toBe(422);
    expect(res.json().details.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  test('an execution_id outside 1..64 of [A-Za-z0-9_-] is 422', async () => {
    for (const id of ['a.b', 'x'.repeat(65)]) {
      const res = await readLogs(id);
      expect(res.statusCode).toBe(422);
      expect(res.json().details.errors.map((e: { path: string }) => e.path)).toContain('path.execution_id');
    }
  });

  test("an unknown execution_id, or someone else's, is 404", async () => {
    const missing = await readLogs('never-reported');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().details.code).toBe('not_found');

    const stranger = await signUp(t.app);
    const post = async (url: string, payload: object) => (await t.app.inject({ method: 'POST', url, headers: stranger.auth, payload })).json().id as number;
    const theirs = await newRun(stranger, { macroId: await post('/api/macros', { name: 'M', kind: 'python' }), deviceId: await post('/api/emulator/devices', { name: 'D', port: 1 }) });
    await appendLogBatch(t.db, theirs.pk, ['secret'], t.clock.now());
    const res = await readLogs(theirs.executionId);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('secret');
  });

  test('a key without runs:read gets 403', async () => {
    const { executionId } = await newRun();
    const devicesOnly = (await createKey(t.app, user, { scopes: ['devices:control', 'macros:run'] })).key;
    const res = await readLogs(executionId, '', devicesOnly);
    expect(res.statusCode).toBe(403);
    expect(res.json().details).toEqual({ code: 'insufficient_scope', required_scopes: ['runs:read'] });
  });
});
