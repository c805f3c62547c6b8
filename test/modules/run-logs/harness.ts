// The run log tests' shared set-up: one app, a user with a key, a macro and a device, and shortcuts to make runs and read their logs.
import { afterAll, beforeAll, expect } from 'vitest';
import { appendLogBatch } from '../../../src/modules/run-logs/store.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createKey, type SignedUpUser, signUp, withKey } from '../../helpers/users.js';

export let t: TestApp;
export let user: SignedUpUser;
export let key: string;
export let macroId: number;
export let deviceId: number;

/** Registers the shared set-up as the calling test file's own hooks (each file calls it once, so files can share a process). */
export function useRunLogsHarness(): void {
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
}

let counter = 0;
/** A new run; its numeric id is the store's execution_pk. */
export async function newRun(owner = user, ids = { macroId, deviceId }): Promise<{ pk: number; executionId: string }> {
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
export const linesFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => `line ${first + i}`);

/** Appends batches of the given sizes, numbering lines on from `next`. */
export async function appendSizes(pk: number, sizes: number[], next = 1): Promise<number> {
  for (const size of sizes) {
    await appendLogBatch(t.db, pk, linesFrom(next, size), t.clock.now());
    next += size;
  }
  return next;
}

export async function readLogs(executionId: string, query = '', withKeyValue = key) {
  t.clock.advance(1000); // stay under the per-key rate limit
  return t.app.inject({ url: `/api/executions/${executionId}/logs${query}`, headers: withKey(withKeyValue) });
}

export async function logs(executionId: string, query = '') {
  const res = await readLogs(executionId, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { execution_id: string; lines: string[]; last_seq: number };
}

/** Follows the cursor from `since` until no new lines come, collecting every answer. */
export async function follow(executionId: string, maxLines: number, since = 0) {
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
