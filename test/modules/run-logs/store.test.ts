// Run logs: the batch store (appendLogBatch): sequence numbers under concurrency, line and batch caps.
import { describe, expect, test } from 'vitest';
import { appendLogBatch, MAX_LINE_BYTES } from '../../../src/modules/run-logs/store.js';
import { useRunLogsHarness, t, newRun, linesFrom, logs, follow } from './harness.js';

useRunLogsHarness();

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
