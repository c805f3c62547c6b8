// The TypeScript SDK as a key holder uses it, against the real service over HTTP: who am I,
// my devices (every page), a cloud run on a simulated device started, its log followed to the
// end, the run waited for and its log read; refusals as typed errors carrying details.code
// (403 insufficient_scope, 404 not_found, 429 rate_limit_exceeded with Retry-After), and a 429
// waited out when retrying is on.
import { createSvcClient, type SvcClient, SvcApiError } from '#svc-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SignedUpUser } from '../helpers/users.js';
import { blockMacro, type ClientWorld, cloudDevice, COMPLETES_LOG, keyFor, newUser, PER_KEY_LIMIT, PROGRAMS, startService } from './harness.js';

let world: ClientWorld;
let ada: SignedUpUser;
let svc: SvcClient; // ada's full-access key
let device: number;
let completes: number;
let fails: number;

const collect = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};
const refusal = (promise: Promise<unknown>) => promise.then(() => expect.fail('the call was not refused'), (error: unknown) => error as SvcApiError);

beforeAll(async () => {
  world = await startService();
  ada = await newUser(world);
  svc = createSvcClient({ apiKey: await keyFor(world, ada), baseUrl: world.baseUrl });
  device = await cloudDevice(world, ada);
  completes = await blockMacro(world, ada, 'Completes', PROGRAMS.completes);
  fails = await blockMacro(world, ada, 'Fails', PROGRAMS.fails);
});
afterAll(() => world.close());

describe('a key holder with the SDK', () => {
  test('whoami names the key and its owner', async () => {
    const me = await svc.whoami();
    expect(me.user).toEqual({ id: ada.id, email: ada.email });
    expect(me.api_key.scopes).toEqual([]);
    expect(me.api_key.prefix).toMatch(/^svc_[0-9a-f]{8}$/);
  });

  test('devices.all walks every page; page() answers one', async () => {
    const more = [await cloudDevice(world, ada, 'Second'), await cloudDevice(world, ada, 'Third')];
    const all = await collect(svc.devices.all({ page_size: 2 }));
    expect(all.map((d) => d.id).sort()).toEqual([device, ...more].sort());
    expect(all.every((d) => d.is_hosted)).toBe(true);
    const first = await svc.devices.page({ page_size: 2, sort: 'name' });
    expect(first).toMatchObject({ page: 1, page_size: 2, total_rows: 3, total_pages: 2 });
    expect(first.rows.map((d) => d.name)).toEqual(['Cloud phone', 'Second']);
  });

  test('a cloud run started, its log followed to the end, the run waited for, its log and history read', async () => {
    const run = await svc.runs.start(device, { macro_id: completes });
    expect(run).toMatchObject({ device_id: device, macro_id: completes, state: 'launching' });
    expect(run.execution_id).toMatch(/^cr_[0-9a-f]{24}$/);
    const cursors: number[] = [];
    const lines = await collect(svc.followLogs(run.execution_id, { pollIntervalMs: 50, onCursor: (seq) => cursors.push(seq) }));
    expect(lines).toEqual(COMPLETES_LOG);
    expect(cursors.length).toBeGreaterThan(0);
    const ended = await svc.waitForRun(run.id, { pollIntervalMs: 50 });
    expect(ended).toMatchObject({ id: run.id, state: 'finished' });
    expect(await svc.runs.get(run.execution_id)).toEqual(ended);
    const log = await svc.executions.logs(run.execution_id);
    expect(log).toEqual({ execution_id: run.execution_id, lines: COMPLETES_LOG, last_seq: cursors.at(-1) });
    const history = await collect(svc.executions.all({ status: 'completed' }));
    const record = history.find((r) => r.execution_id === run.execution_id);
    expect(record).toMatchObject({ status: 'completed', macro_id: completes, device_id: device, execution_type: 'block' });
    expect(await svc.executions.get(record!.id)).toEqual(record);
  });

  test('a failed run ends `failed` with its reason; following it still yields every line', async () => {
    const run = await svc.runs.start(device, { macro_id: fails });
    const lines = await collect(svc.followLogs(run.execution_id, { pollIntervalMs: 50 }));
    expect(lines[0]).toContain('looking for the button');
    expect(lines).toEqual((await svc.executions.logs(run.execution_id)).lines);
    const ended = await svc.waitForRun(run.execution_id, { pollIntervalMs: 50 });
    expect(ended.state).toBe('failed');
    expect(ended.state_message).toContain('No such button anywhere');
  });

  test('a key with runs:read alone follows a log too (the end read from the run history)', async () => {
    const reader = createSvcClient({ apiKey: await keyFor(world, ada, ['runs:read']), baseUrl: world.baseUrl });
    const run = await svc.runs.start(device, { macro_id: completes });
    expect(await collect(reader.followLogs(run.execution_id, { pollIntervalMs: 50 }))).toEqual(COMPLETES_LOG);
    expect((await svc.runs.get(run.id)).state).toBe('finished');
  });

  test('a run stopped while followed: the follow ends, waitForRun answers `stopped`', async () => {
    const waits = await blockMacro(world, ada, 'Waits', PROGRAMS.waits);
    const run = await svc.runs.start(device, { macro_id: waits });
    const following = collect(svc.followLogs(run.execution_id, { pollIntervalMs: 50 }));
    await expect.poll(async () => (await svc.executions.logs(run.execution_id)).lines.join('\n'), { timeout: 20_000, interval: 50 }).toContain('waiting');
    expect((await svc.runs.stop(run.id)).state).toBe('stopping');
    const lines = await following;
    expect(lines[0]).toContain('waiting');
    expect(lines).toEqual((await svc.executions.logs(run.execution_id)).lines);
    expect((await svc.waitForRun(run.id, { pollIntervalMs: 50 })).state).toBe('stopped');
  });

  test('an abort signal ends a wait at once', async () => {
    const waits = await blockMacro(world, ada, 'Waits again', PROGRAMS.waits);
    const run = await svc.runs.start(device, { macro_id: waits });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('enough')), 100);
    await expect(svc.waitForRun(run.id, { pollIntervalMs: 50, signal: controller.signal })).rejects.toThrow('enough');
    await svc.runs.stop(run.id);
    expect((await svc.waitForRun(run.id, { pollIntervalMs: 50 })).state).toBe('stopped');
  });
});

describe('refusals are typed errors carrying details.code', () => {
  test('403 insufficient_scope, naming the scope that would do', async () => {
    const reader = createSvcClient({ apiKey: await keyFor(world, ada, ['runs:read']), baseUrl: world.baseUrl });
    const error = await refusal(reader.runs.start(device, { macro_id: completes }));
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({ status: 403, code: 'insufficient_scope', request: `POST /api/hosted/devices/${device}/run` });
    expect(error.details.required_scopes).toEqual(['macros:run']);
    expect(error.message).toContain('403 insufficient_scope');
  });

  test("404 not_found for another account's device, run and history record", async () => {
    const bob = await newUser(world);
    const bobs = createSvcClient({ apiKey: await keyFor(world, bob), baseUrl: world.baseUrl });
    const run = await svc.runs.start(device, { macro_id: completes });
    await svc.waitForRun(run.id, { pollIntervalMs: 50 });
    const calls = [() => bobs.runs.start(device, { macro_id: completes }), () => bobs.runs.get(run.id), () => bobs.runs.stop(run.execution_id), () => bobs.executions.logs(run.execution_id)];
    for (const call of calls) expect(await refusal(call())).toMatchObject({ status: 404, code: 'not_found' });
    expect((await svc.runs.get(run.id)).state).toBe('finished');
  });

  test('401 invalid_api_key for a revoked key', async () => {
    const created = await world.t.app.inject({ method: 'POST', url: '/api/api-keys', headers: ada.auth, payload: { name: 'short-lived' } });
    await world.t.app.inject({ method: 'DELETE', url: `/api/api-keys/${created.json().api_key.id}`, headers: ada.auth });
    const revoked = createSvcClient({ apiKey: created.json().key, baseUrl: world.baseUrl });
    expect(await refusal(revoked.whoami())).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  test('429 rate_limit_exceeded with Retry-After when retrying is off; waited out when it is on', async () => {
    const key = await keyFor(world, ada);
    // Half a second before the window ends, so the service asks for a 1 s wait.
    const windowEnd = Math.ceil((world.t.clock.now() + 1) / 60_000) * 60_000;
    world.t.clock.set(windowEnd - 500);
    for (let i = 0; i < PER_KEY_LIMIT; i++) await world.t.app.inject({ url: '/api/whoami', headers: { 'x-api-key': key } });

    const noRetry = createSvcClient({ apiKey: key, baseUrl: world.baseUrl, retry: false });
    const error = await refusal(noRetry.whoami());
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 1, rateLimitScope: 'key' });

    // The service's clock stands still in tests: move it past the window when the 429 arrives,
    // as the passing second would.
    const statuses: number[] = [];
    const patient = createSvcClient({
      apiKey: key,
      baseUrl: world.baseUrl,
      fetch: async (request) => {
        const response = await fetch(request);
        statuses.push(response.status);
        if (response.status === 429) world.t.clock.advance(Number(response.headers.get('retry-after')) * 1000);
        return response;
      },
    });
    const started = performance.now();
    expect((await patient.whoami()).user.id).toBe(ada.id);
    expect(statuses).toEqual([429, 200]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });
});
