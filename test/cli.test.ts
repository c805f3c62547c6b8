// The real binary: `migrate`, and `serve` on the embedded default, including a graceful
// shutdown that lets an in-flight request finish; and the package's `svc` bin (bin/svc.js,
// `npx svc`): only the command's output on stdout, each command's --help without a key, 130
// after Ctrl-C, and what it says when the service is not built.
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createSvcClient } from '#svc-client';
import { afterAll, describe, expect, test } from 'vitest';
import { blockMacro, cloudDevice, keyFor, newUser, PROGRAMS, startService } from './clients/harness.js';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  dirs.push(dir);
  return dir;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// Always the embedded default here, whatever engine the suite runs on.
// Vitest sets BASE_URL=/ for Vite; the service would rightly refuse it, so clear it too.
const embeddedEnv = (extra: Record<string, string>) => ({ ...process.env, DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '', BASE_URL: '', ...extra });

describe('svc migrate', () => {
  test('applies the migrations once, then reports it is up to date', async () => {
    const env = embeddedEnv({ DATA_DIR: tempDir() });
    expect((await run('node', ['dist/main.js', 'migrate'], { env })).stdout).toContain('Applied: 0001_accounts');
    expect((await run('node', ['dist/main.js', 'migrate'], { env })).stdout).toContain('Already up to date');
  });
});

describe('svc serve', () => {
  test('starts on the embedded default, prints its URLs, and on SIGTERM finishes the request in flight', async () => {
    const port = await freePort();
    const dataDir = tempDir();
    const child = spawn('node', ['dist/main.js', 'serve'], { env: embeddedEnv({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' }) });
    let stdout = '';
    // Log lines go to stdout, the banner to stderr; the test reads both.
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // A time-out, not a speed check (that is bench/start.js): generous for a loaded CI machine.
      for (let i = 0; i < 300 && !stdout.includes('/healthz'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(stdout).toContain(`http://localhost:${port}/api`);
      expect(stdout).toContain('SQLite');
      expect(stdout).toContain(`http://localhost:${port}/docs`);
      expect(stdout).toContain(`http://localhost:${port}/healthz`);
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect(await (await fetch(`${base}/api`)).json()).toMatchObject({ docs: `http://localhost:${port}/docs` });

      // Sign-up hashes the password with the production scrypt cost, which takes long
      // enough for the signal to arrive while the request is in flight.
      const inFlight = fetch(`${base}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'inflight@example.com', password: 'long enough password' }),
      });
      // Signal only once the server has the request (its log line says so).
      for (let i = 0; i < 200 && !stdout.includes('"url":"/api/auth/signup"'); i++) await new Promise((r) => setTimeout(r, 5));
      expect(stdout).toContain('"url":"/api/auth/signup"');
      child.kill('SIGTERM');
      const response = await inFlight;
      expect(response.status).toBe(201);
      expect(await exited).toBe(0);
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A command run to its end, with its exit code (null when a signal ended it). */
function exec(file: string, args: string[], env: Record<string, string | undefined>): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { ...process.env, BASE_URL: '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number | null }).code ?? null) : 0, stdout, stderr });
    });
  });
}

const bin = (args: string[], env: Record<string, string | undefined> = {}) => exec('bin/svc.js', args, env);

describe('the svc bin', () => {
  test("any command's --help prints its help on stdout without a key, a token or a database", async () => {
    const noKey = { SVC_API_KEY: '', ADMIN_TOKEN: '', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const start = await bin(['runs', 'start', '--help'], noKey);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toMatch(/^Usage: svc runs start --device ID --macro ID/);
    expect(start.stdout).toContain('--args-json JSON');
    expect(start.stdout).toContain('130 interrupted by Ctrl-C');
    expect(start.stderr).toBe('');
    // After other options too, and -h; each subcommand its own.
    const list = await bin(['runs', 'list', '--status', 'failed', '-h'], noKey);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^Usage: svc runs list \[--status running\|completed\|failed\|stopped\]/);
    expect((await bin(['devices', 'list', '--help'], noKey)).stdout).toMatch(/^Usage: svc devices list/);
    expect((await bin(['code', 'push', '--help'], noKey)).stdout).toMatch(/^Usage: svc code hash DIR/);
    expect((await bin(['admin', 'users', '--help'], noKey)).stdout).toMatch(/^Usage: svc admin users/);
    // `serve --help` explains and exits; it does not start a server.
    const serve = await bin(['serve', '--help'], noKey);
    expect(serve.code).toBe(0);
    expect(serve.stdout).toMatch(/^Usage: svc serve\n/);
    // An unknown command with --help: the overview, and the usage error's status.
    const unknown = await bin(['nonsense', '--help'], noKey);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toContain('Usage: svc <command>');
  }, 90_000); // several node processes start one after another; slow on a loaded machine

  test('says how to build when dist/ is missing', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'bin'));
    copyFileSync('bin/svc.js', join(dir, 'bin', 'svc.js'));
    const result = await exec(process.execPath, [join(dir, 'bin', 'svc.js'), 'runs', 'list'], {});
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the service is not built. Run `npm run build`');
  });

  describe('against the real service', () => {
    test('`npx svc … --json` prints only the JSON on stdout; Ctrl-C while following leaves with 130 and the run goes on', async () => {
      const world = await startService();
      try {
        const ada = await newUser(world);
        const key = await keyFor(world, ada);
        const device = await cloudDevice(world, ada);
        const waits = await blockMacro(world, ada, 'Waits', PROGRAMS.waits);
        const env = { SVC_API_KEY: key, SVC_BASE_URL: world.baseUrl };

        // npx runs the checkout's own bin (`--no`: never install anything to do it).
        const listed = await exec('npx', ['--no', 'svc', 'devices', 'list', '--json'], env);
        expect(listed.code, listed.stderr).toBe(0);
        expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: device, is_hosted: true })]);

        const child = spawn('bin/svc.js', ['runs', 'start', '--device', String(device), '--macro', String(waits), '--follow'], { env: { ...process.env, BASE_URL: '', ...env } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
        try {
          await expect.poll(() => stdout, { timeout: 20_000, interval: 50 }).toContain('waiting');
          child.kill('SIGINT');
          expect(await exited).toEqual({ code: 130, signal: null });
          expect(stderr).toContain('Interrupted (Ctrl-C)');
        } finally {
          child.kill('SIGKILL');
        }
        // Ctrl-C stopped following, not the run.
        const svc = createSvcClient({ apiKey: key, baseUrl: world.baseUrl });
        const running = (await svc.executions.page({ status: 'running' })).rows.filter((run) => run.device_id === device);
        expect(running).toHaveLength(1);
        await svc.runs.stop(running[0].execution_id);
      } finally {
        await world.close();
      }
    }, 120_000);
  });
});
