// `svc runs` and `svc devices`, the real binary (`node dist/main.js`) against the real service
// over HTTP, with the key in SVC_API_KEY: `runs start --follow` prints the log and exits with
// the run's outcome (0 completed, 1 failed, 2 stopped), `runs logs`, `runs stop`, `runs list`
// and `devices list` print for a person and, with --json, for a script; a refusal exits 3 with
// the service's code and message.
import { execFile, spawn } from 'node:child_process';
import { createSvcClient, type SvcClient } from '#svc-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SignedUpUser } from '../helpers/users.js';
import { blockMacro, type ClientWorld, cloudDevice, COMPLETES_LOG, keyFor, newUser, PROGRAMS, startService } from './harness.js';

let world: ClientWorld;
let ada: SignedUpUser;
let key: string;
let svc: SvcClient;
let device: number;
let macros: Record<keyof typeof PROGRAMS, number>;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `svc ARGS` with SVC_API_KEY and SVC_BASE_URL set (vitest's BASE_URL=/ cleared: the service would refuse it). */
function svcCommand(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist/main.js', ...args], { env: { ...process.env, BASE_URL: '', SVC_API_KEY: key, SVC_BASE_URL: world.baseUrl, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  world = await startService();
  ada = await newUser(world);
  key = await keyFor(world, ada);
  svc = createSvcClient({ apiKey: key, baseUrl: world.baseUrl });
  device = await cloudDevice(world, ada);
  macros = {
    completes: await blockMacro(world, ada, 'Completes', PROGRAMS.completes),
    fails: await blockMacro(world, ada, 'Fails', PROGRAMS.fails),
    waits: await blockMacro(world, ada, 'Waits', PROGRAMS.waits),
  };
});
afterAll(() => world.close());

describe('svc runs start --follow', () => {
  test('prints the log as it arrives and exits 0 when the run completes', async () => {
    const result = await svcCommand(['runs', 'start', '--device', String(device), '--macro', String(macros.completes), '--arg', 'speed=3', '--follow']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${COMPLETES_LOG.join('\n')}\n`);
    expect(result.stderr).toMatch(/^Run \d+ \(cr_[0-9a-f]{24}\) launching; following its log/);
    expect(result.stderr).toMatch(/Run \d+ finished\.\n$/);
  });

  test('exits 1 when the run fails, with the reason on stderr', async () => {
    const result = await svcCommand(['runs', 'start', '--device', String(device), '--macro', String(macros.fails), '--follow']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('looking for the button');
    expect(result.stderr).toMatch(/Run \d+ failed: .*No such button anywhere/);
  });

  test('exits 2 when the run is stopped; --json prints one object per line, the run last', async () => {
    const child = spawn(process.execPath, ['dist/main.js', 'runs', 'start', '--device', String(device), '--macro', String(macros.waits), '--follow', '--json'], {
      env: { ...process.env, BASE_URL: '', SVC_API_KEY: key, SVC_BASE_URL: world.baseUrl },
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => stdout, { timeout: 20_000, interval: 50 }).toContain('waiting');
      const first = JSON.parse(stdout.split('\n')[0]) as { type: string; line: string };
      expect(first.type).toBe('log');
      const running = (await svc.executions.page({ status: 'running' })).rows.find((r) => r.device_id === device);
      expect((await svc.runs.stop(running!.execution_id)).state).toBe('stopping');
      expect(await exited).toBe(2);
      const objects = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; run?: { state: string; execution_id: string } });
      expect(objects.at(-1)).toMatchObject({ type: 'run', run: { state: 'stopped', execution_id: running!.execution_id } });
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('the other commands', () => {
  test('runs start without --follow prints the run; runs logs reads its log, --follow until it ends; runs stop answers its state', async () => {
    const started = await svcCommand(['runs', 'start', '--device', String(device), '--macro', String(macros.completes), '--json']);
    expect(started.code, started.stderr).toBe(0);
    const run = JSON.parse(started.stdout) as { id: number; execution_id: string; state: string };
    expect(run.state).toBe('launching');
    const followed = await svcCommand(['runs', 'logs', run.execution_id, '--follow']);
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.stdout).toBe(`${COMPLETES_LOG.join('\n')}\n`);
    const read = await svcCommand(['runs', 'logs', run.execution_id, '--json']);
    expect(JSON.parse(read.stdout)).toMatchObject({ execution_id: run.execution_id, lines: COMPLETES_LOG });
    const stopped = await svcCommand(['runs', 'stop', String(run.id)]);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toBe(`Run ${run.id} (${run.execution_id}): finished\n`);
  });

  test('runs list filters and prints a table, or JSON rows', async () => {
    const table = await svcCommand(['runs', 'list', '--status', 'failed']);
    expect(table.code, table.stderr).toBe(0);
    const [header, ...rows] = table.stdout.trim().split('\n');
    expect(header).toMatch(/^ID\s+EXECUTION_ID\s+STATUS\s+MACRO\s+DEVICE\s+STARTED\s+DURATION$/);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const row of rows) expect(row).toMatch(/\bfailed\s+Fails\b/);
    const json = await svcCommand(['runs', 'list', '--macro', String(macros.completes), '--limit', '1', '--json']);
    const parsed = JSON.parse(json.stdout) as { macro_id: number; status: string }[];
    expect(parsed).toHaveLength(1);
    expect(parsed[0]).toMatchObject({ macro_id: macros.completes });
  });

  test('devices list prints every device, or JSON', async () => {
    const table = await svcCommand(['devices', 'list']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+KIND\s+STATE\s+PORT\s+GROUP\s+RUNS\n/);
    expect(table.stdout).toMatch(new RegExp(`\\n${device}\\s+Cloud phone\\s+cloud\\s+ready\\s+-\\s+-\\s+\\d+\\n`));
    const json = JSON.parse((await svcCommand(['devices', 'list', '--json'])).stdout) as { id: number; is_hosted: boolean }[];
    expect(json).toEqual([expect.objectContaining({ id: device, is_hosted: true })]);
  });
});

describe('failures exit 3 with the service’s code and message', () => {
  test('a key without the scope, another account’s device, no key, a bad option', async () => {
    const reader = await keyFor(world, ada, ['runs:read']);
    const scope = await svcCommand(['devices', 'list'], { SVC_API_KEY: reader });
    expect(scope.code).toBe(3);
    expect(scope.stderr).toContain('403 insufficient_scope');
    expect(scope.stderr).toContain('a key with devices:control would do');

    const bob = await newUser(world);
    const bobsKey = await keyFor(world, bob);
    const notFound = await svcCommand(['runs', 'start', '--device', String(device), '--macro', String(macros.completes), '--follow'], { SVC_API_KEY: bobsKey });
    expect(notFound.code).toBe(3);
    expect(notFound.stderr).toContain(`POST /api/hosted/devices/${device}/run answered 404 not_found`);

    const noKey = await svcCommand(['runs', 'list'], { SVC_API_KEY: '' });
    expect(noKey.code).toBe(3);
    expect(noKey.stderr).toContain('Set SVC_API_KEY');

    const badOption = await svcCommand(['runs', 'start', '--device', 'twelve', '--macro', '1']);
    expect(badOption.code).toBe(3);
    expect(badOption.stderr).toContain('--device must be a positive whole number (got "twelve")');
    const badArg = await svcCommand(['runs', 'start', '--device', '1', '--macro', '1', '--arg', 'novalue']);
    expect(badArg.stderr).toContain('--arg takes name=value');
  });
});
