// The real binary in a child process (`node dist/main.js <command>`), for tests that need a
// second process: its standard error is collected so a test can wait for a line, and it is
// killed when the test ends if it is still running.
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './listening-app.js';
import { TEST_DATABASE_URL } from './engine.js';

export interface SvcProcess {
  child: ChildProcess;
  /** Resolves with the first match of `pattern` on standard error. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then the exit code once it has exited. */
  stop(): Promise<number | null>;
  kill(): void;
  /** The exit code once it has exited by itself or been stopped. */
  exited: Promise<number | null>;
  /** What it has written to standard error so far. */
  stderr(): string;
}

/** DATABASE_URL for a child process that must use the test's PostgreSQL schema. */
export function databaseUrlFor(pgSchema: string | undefined): string {
  if (!TEST_DATABASE_URL || !pgSchema) return '';
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${pgSchema}`);
  return url.toString();
}

export function spawnSvc(command: string, env: Record<string, string>): SvcProcess {
  const child = spawn('node', ['dist/main.js', command], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, REDIS_URL: '', BASE_URL: '', LOG_LEVEL: 'warn', ...env } });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    waitForStderr(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stderr.match(pattern);
          if (match) {
            clearInterval(timer);
            clearTimeout(limit);
            resolve(match);
          }
        };
        const timer = setInterval(check, 10);
        const limit = setTimeout(() => {
          clearInterval(timer);
          reject(new Error(`no ${pattern} on the child's stderr within ${timeoutMs} ms; it wrote: ${stderr.slice(0, 2000)}`));
        }, timeoutMs);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    exited,
    stderr: () => stderr,
  };
}

/** The line `serve` prints once it listens, with its base URL. */
const LISTENING = /API:\s+(\S+)\/api/;
const ATTEMPTS = 5;

/**
 * `serve` on a port free a moment before (`env` gets it: PORT, and BASE_URL where the process
 * must name its own address). When a parallel test process took the port meanwhile, the child
 * stops on EADDRINUSE and another port is tried. Answers once it listens.
 */
export async function serveOnFreePort(env: (port: number) => Record<string, string>, timeoutMs = 30_000): Promise<{ svc: SvcProcess; port: number; base: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const svc = spawnSvc('serve', { PORT: String(port), HOST: '127.0.0.1', ...env(port) });
    const listening = svc.waitForStderr(LISTENING, timeoutMs).then(
      () => true,
      (error: unknown) => error,
    );
    const outcome = await Promise.race([listening, svc.exited.then(() => false)]);
    if (outcome === true) return { svc, port, base: `http://127.0.0.1:${port}` };
    // A child still going (it never said it listens) is killed; the wait for its line ends by its own time-out.
    svc.kill();
    if (outcome === false && svc.stderr().includes('EADDRINUSE') && attempt < ATTEMPTS) continue;
    throw outcome instanceof Error ? outcome : new Error(`serve stopped before it listened; it wrote: ${svc.stderr().slice(0, 2000)}`);
  }
}
