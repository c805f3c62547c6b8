// The real binary: `migrate`, and `serve` on the embedded default, including a graceful
// shutdown that lets an in-flight request finish.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';

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
      for (let i = 0; i < 100 && !stdout.includes('/healthz'); i++) await new Promise((r) => setTimeout(r, 100));
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
  });
});
