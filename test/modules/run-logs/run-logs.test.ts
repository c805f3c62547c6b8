// Run logs: the batch store (sequence numbers under concurrency, caps) and the cursor
// contract of GET /api/executions/{execution_id}/logs.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appendLogBatch, MAX_LINE_BYTES } from '../../../src/modules/run-logs/store.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, type SignedUpUser, signUp, withKey } from '../../helpers/users.js';

let t: TestApp;
let user: SignedUpUser;
let key: string;
let macroId: number;
let deviceId: number;

beforeAll(async () => {
  t = await createTestApp();
  user = await signUp(t.app);
  key = (await createKey(t.app, user, { scopes: ['runs:read'] })).key;
  const post = async (url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers: user.auth, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  macroId = await post('/api/macros', { name: 'Logger', kind: 'python' });
  deviceId = await post('/api/emulator/devices', { name: 'Cloudish', port: 5555 });
});
afterAll(() => t.close());

let counter = 0;
/** A new run; its numeric id is the store's execution_pk. */
async function newRun(owner = user, ids = { macroId, deviceId }): Promise<{ pk: number; executionId: string }> {
  const executionId = `logs-${++counter}`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/executions/report',
    headers: owner.auth,
    payload: { execution_id: executionId, status: 'running', macro_id: ids.macroId, device_id: ids.deviceId, execution_type: 'python', started_at: '2026-03-02T09:00:00Z' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { pk: res.json().id, executionId };
}

/** `count` lines named after the run-wide number of the first. */
const linesFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => `line ${first + i}`);

/** Appends batches of the given sizes, numbering lines on from `next`. */
async function appendSizes(pk: number, sizes: number[], next = 1): Promise<number> {
  for (const size of sizes) {
    await appendLogBatch(t.db, pk, linesFrom(next, size), t.clock.now());
    next += size;
  }
  return next;
}

async function readLogs(executionId: string, query = '', withKeyValue = key) {
  t.clock.advance(1000); // stay under the per-key rate limit
  return t.app.inject({ url: `/api/executions/${executionId}/logs${query}`, headers: withKey(withKeyValue) });
}

async function logs(executionId: string, query = '') {
  const res = await readLogs(executionId, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { execution_id: string; lines: string[]; last_seq: number };
}

/** Follows the cursor from `since` until no new lines come, collecting every answer. */
async function follow(executionId: string, maxLines: number, since = 0) {
  const reads: { lines: string[]; last_seq: number }[] = [];
  let cursor = since;
  for (;;) {
    const page = await logs(executionId, `?since_seq=${cursor}&max_lines=${maxLines}`);
    if (page.lines.length === 0) {
      expect(page.last_seq).toBe(cursor);
      return reads;
    }
    expect(page.last_seq).toBeGreaterThan(cursor);
    reads.push(page);
    cursor = page.last_seq;
  }
}

describe('appendLogBatch', () => {
  test('numbers batches 1, 2, 3 and lines run-wide from 1', async () => {
    const { pk } = await newRun();
    expect(await appendLogBatch(t.db, pk, linesFrom(1, 3), t.clock.now())).toEqual({ seq: 1, lineStart: 1 });
    expect(await appendLogBatch(t.db, pk, linesFrom(4, 1), t.clock.now())).toEqual({ seq: 2, lineStart: 4 });
    expect(await appendLogBatch(t.db, pk, linesFrom(5, 1000), t.clock.now())).toEqual({ seq: 3, lineStart: 5 });
    const rows = await t.db.kysely.selectFrom('run_log_batches').selectAll().where('execution_pk', '=', pk).orderBy('seq').execute();
    expect(rows.map((r) => [r.seq, r.line_start, r.line_count])).toEqual([
      [1, 1, 3],
      [2, 4, 1],
      [3, 5, 1000],
    ]);
    expect(JSON.parse(rows[0].lines)).toEqual(['line 1', 'line 2', 'line 3']);
    // Each run counts on its own.
    const other = await newRun();
    expect(await appendLogBatch(t.db, other.pk, ['x'], t.clock.now())).toEqual({ seq: 1, lineStart: 1 });
  });

  test('refuses an empty batch and one over 1000 lines, writing nothing', async () => {
    const { pk } = await newRun();
    await expect(appendLogBatch(t.db, pk, [], t.clock.now())).rejects.toThrow(/at least one line/);
    await expect(appendLogBatch(t.db, pk, linesFrom(1, 1001), t.clock.now())).rejects.toThrow(/at most 1000 lines/);
    const rows = await t.db.kysely.selectFrom('run_log_batches').select('id').where('execution_pk', '=', pk).execute();
    expect(rows).toEqual([]);
  });

  test('refuses a batch for a run that does not exist', async () => {
    await expect(appendLogBatch(t.db, 987_654, ['x'], t.clock.now())).rejects.toThrow(/no execution/);
  });

  test('cuts a line to its first 8 KiB of UTF-8, never inside a character', async () => {
    const { pk, executionId } = await newRun();
    const ascii = 'a'.repeat(MAX_LINE_BYTES + 100);
    const euro = '€'.repeat(3000); // 3 bytes each: 9000 bytes; 8192 is not a character boundary
    const exact = 'b'.repeat(MAX_LINE_BYTES);
    await appendLogBatch(t.db, pk, [ascii, euro, exact, 'short'], t.clock.now());
    const { lines } = await logs(executionId);
    expect(lines[0]).toBe('a'.repeat(MAX_LINE_BYTES));
    expect(lines[1]).toBe('€'.repeat(2730));
    expect(Buffer.byteLength(lines[1])).toBe(8190);
    expect(lines[2]).toBe(exact);
    expect(lines[3]).toBe('short');
  });

  test('20 concurrent appends get seqs 1..20 with contiguous lines, and the cursor reads every line once in order', async () => {
    const { pk, executionId } = await newRun();
    const appendRound = (round: number) =>
      Promise.all(Array.from({ length: 20 }, (_, i) => appendLogBatch(t.db, pk, Array.from({ length: 10 + i }, (_, j) => `r${round}b${i}:${j}`), t.clock.now())));
    const storedLines = async () => {
      const rows = await t.db.kysely.selectFrom('run_log_batches').selectAll().where('execution_pk', '=', pk).orderBy('seq').execute();
      let expectedStart = 1;
      for (const row of rows) {
        expect(row.line_start).toBe(expectedStart);
        expectedStart += row.line_count;
      }
      return rows.flatMap((row) => JSON.parse(row.lines) as string[]);
    };

    const first = await appendRound(1);
    expect(first.map((r) => r.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const afterFirst = await storedLines();
    expect(afterFirst).toHaveLength(390);
    // A reader starts with the newest window (all 390 lines fit) ...
    const window = await logs(executionId, '?max_lines=1000');
    expect(window).toMatchObject({ lines: afterFirst, last_seq: 20 });

    // ... then follows the cursor while 20 more batches (390 lines, far over max_lines) land at once.
    const second = await appendRound(2);
    expect(second.map((r) => r.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 21));
    const reads = await follow(executionId, 50, window.last_seq);
    expect(reads[reads.length - 1].last_seq).toBe(40);
    const all = await storedLines();
    expect([...window.lines, ...reads.flatMap((r) => r.lines)]).toEqual(all);
    expect(new Set(all).size).toBe(780);
    // Each batch's lines stay together and in their own order.
    for (let i = 0; i < 20; i++) {
      const batch = all.filter((line) => line.startsWith(`r2b${i}:`));
      expect(batch).toEqual(Array.from({ length: 10 + i }, (_, j) => `r2b${i}:${j}`));
    }
  });
});

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
