// A Python run's output in the real run-log store, read back through the cursor route:
// thousands of numbered lines printed fast, partial lines, invalid UTF-8, a line over 8 KiB,
// and lines readable while the run still lives. No line lost, none duplicated.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LogShipper } from '../../../src/modules/runs/logs/log-shipper.js';
import { runLogStoreSink } from '../../../src/modules/runs/logs/log-sink.js';
import { runPython } from '../../../src/modules/runs/runner/python-run.js';
import { readLinesAfter } from '../../../src/modules/run-logs/store.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../helpers/users.js';
import { insertHistoryRecord, newExecutionId } from './helpers/records.js';
import { removeTempDirs, runnerSettings, zipOf } from './helpers/runner.js';

let t: TestApp;
let user: SignedUpUser;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await signUp(t.app);
  key = (await createKey(t.app, user, { scopes: ['runs:read'] })).key;
});
afterAll(async () => {
  await t.close();
  removeTempDirs();
});

async function startRun(macro: string | Buffer) {
  const executionId = newExecutionId();
  const recordId = await insertHistoryRecord(t.db.kysely, user.id, executionId);
  const logs = new LogShipper(runLogStoreSink(t.db, t.clock, recordId));
  const done = runPython(runnerSettings(), { executionId, zip: zipOf({ 'main.py': macro }), entryPath: 'main.py', args: {}, deviceUrl: 'http://127.0.0.1:9', token: 't', logs }).then(
    async (outcome) => {
      await logs.close();
      return outcome;
    },
  );
  return { executionId, done };
}

/**
 * Every line, following the store's cursor from the first batch, 1000 at a time (the route
 * answers the newest window for since_seq 0, so only the store can start from the beginning).
 */
async function readAll(executionId: string): Promise<string[]> {
  const { id } = await t.db.kysely.selectFrom('executions').select('id').where('execution_id', '=', executionId).executeTakeFirstOrThrow();
  const lines: string[] = [];
  let since = 0;
  for (;;) {
    const window = await readLinesAfter(t.db.kysely, id, since, 1000);
    lines.push(...window.lines);
    if (window.lastSeq === since) return lines;
    since = window.lastSeq;
  }
}

/** The newest lines and the cursor, through the route a key holder uses. */
async function readRoute(executionId: string, sinceSeq = 0): Promise<{ lines: string[]; last_seq: number }> {
  const res = await t.app.inject({ url: `/api/executions/${executionId}/logs?since_seq=${sinceSeq}`, headers: withKey(key) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('run output in the store', () => {
  test('20,000 numbered lines printed as fast as Python can, with stderr between: every one, once, in order', async () => {
    const macro = ['import sys', 'for i in range(20000):', '    print(i)', '    if i % 97 == 0:', '        print("e", i, file=sys.stderr)'].join('\n');
    const { executionId, done } = await startRun(macro);
    expect((await done).state).toBe('finished');
    const lines = await readAll(executionId);
    const stdout = lines.filter((l) => !l.startsWith('[stderr] '));
    const stderr = lines.filter((l) => l.startsWith('[stderr] '));
    expect(stdout).toEqual(Array.from({ length: 20000 }, (_, i) => String(i)));
    expect(stderr).toEqual(Array.from({ length: Math.ceil(20000 / 97) }, (_, i) => `[stderr] e ${i * 97}`));
    // Batches of at most 200 lines.
    const batches = await t.db.kysely.selectFrom('run_log_batches as b').innerJoin('executions as e', 'e.id', 'b.execution_pk').select('b.line_count').where('e.execution_id', '=', executionId).execute();
    expect(Math.max(...batches.map((b) => b.line_count))).toBeLessThanOrEqual(200);
    expect(batches.reduce((n, b) => n + b.line_count, 0)).toBe(lines.length);
  });

  test('partial writes join into one line; a last line without a newline is kept; invalid UTF-8 and long lines are stored safely', async () => {
    const macro = [
      'import sys, time',
      'sys.stdout.write("part one, ")',
      'sys.stdout.flush()',
      'time.sleep(0.1)',
      'sys.stdout.write("part two\\n")',
      'sys.stdout.buffer.write(b"bytes \\xff\\xfe\\xc3 end\\n")',
      'sys.stdout.write("x" * 20000 + "\\n")',
      'sys.stdout.write("no newline at the end")',
    ].join('\n');
    const { executionId, done } = await startRun(macro);
    expect((await done).state).toBe('finished');
    const lines = await readAll(executionId);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('part one, part two');
    expect(lines[1]).toBe('bytes \uFFFD\uFFFD\uFFFD end');
    expect(lines[2]).toMatch(/^x{8000,} … \[line cut: 20000 bytes in all\]$/);
    expect(Buffer.byteLength(lines[2])).toBeLessThanOrEqual(8192);
    expect(lines[3]).toBe('no newline at the end');
  });

  test('lines are readable through the cursor route while the run still lives', async () => {
    const macro = 'import time\nprint("started", flush=True)\ntime.sleep(2)\nprint("finished")';
    const { executionId, done } = await startRun(macro);
    let ended = false;
    void done.then(() => (ended = true));
    await expect.poll(async () => (await readRoute(executionId)).lines, { timeout: 5000, interval: 50 }).toEqual(['started']);
    expect(ended).toBe(false);
    const { last_seq } = await readRoute(executionId);
    await done;
    expect(await readRoute(executionId, last_seq)).toEqual({ execution_id: executionId, lines: ['finished'], last_seq: last_seq + 1 });
  });
});
