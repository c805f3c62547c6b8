// The Python runner: the private folder, exactly the environment of §10, the command line,
// exit codes and the last stderr line, the time and memory limits, and stop (SIGTERM to the
// whole process group, SIGKILL after the grace period).
import { chmodSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { afterAll, describe, expect, onTestFinished, test } from 'vitest';
import { LogShipper } from '../../../src/modules/runs/logs/log-shipper.js';
import { buildRunEnvironment } from '../../../src/modules/runs/runner/environment.js';
import { type PythonRunInput, type PythonRunSettings, runPython } from '../../../src/modules/runs/runner/python-run.js';
import { leftInRunsDir, MemorySink, removeTempDirs, runnerSettings, TEST_RUN_AS, tempDir, zipOf } from './helpers/runner.js';

afterAll(removeTempDirs);

async function run(files: Record<string, string>, options: Partial<PythonRunInput> = {}, settings: Partial<PythonRunSettings> = {}) {
  const sink = new MemorySink();
  const logs = new LogShipper(sink);
  const config = runnerSettings(settings);
  const started = performance.now();
  const outcome = await runPython(config, {
    executionId: 'cr_0123456789abcdef01234567',
    zip: zipOf(files),
    entryPath: 'main.py',
    args: {},
    deviceUrl: 'http://127.0.0.1:9/api/runs/devices/7',
    token: 'svr_test',
    logs,
    ...options,
  });
  await logs.close();
  return { outcome, lines: sink.lines, ms: performance.now() - started, runsDir: config.runsDir };
}

describe('the private folder and the environment', () => {
  test('the environment is exactly that of §10, the code is the working directory, the folder is private and removed afterwards', async () => {
    const { outcome, lines, runsDir } = await run(
      {
        'main.py': [
          'import json, os, stat, sys',
          'from lib.helper import greeting',
          'print(json.dumps(dict(os.environ), sort_keys=True))',
          'print(greeting())',
          'root = os.path.dirname(os.getcwd())',
          'print(oct(stat.S_IMODE(os.stat(root).st_mode)), oct(stat.S_IMODE(os.stat(".").st_mode)), os.path.basename(os.getcwd()), os.environ["HOME"] == os.path.join(root, "home"))',
          'print(sys.argv)',
        ].join('\n'),
        'lib/__init__.py': '',
        'lib/helper.py': 'def greeting():\n    return "hello from the snapshot"\n',
      },
      { args: { speed: 2, name: 'Ada' } },
    );
    expect(outcome).toEqual({ state: 'finished', exitCode: 0, errorMessage: null, stateMessage: null });
    const env = JSON.parse(lines[0]) as Record<string, string>;
    expect(env).toEqual({
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: expect.stringMatching(/\/home$/),
      LANG: 'C.UTF-8',
      PYTHONUNBUFFERED: '1',
      PYTHONPATH: expect.stringMatching(/\/sdk$/),
      MACRO_ARGS: '{"speed":2,"name":"Ada"}',
      SVC_EXECUTION_ID: 'cr_0123456789abcdef01234567',
      SVC_DEVICE_URL: 'http://127.0.0.1:9/api/runs/devices/7',
      SVC_RUN_TOKEN: 'svr_test',
    });
    // The SDK is the run's own copy, beside its HOME, of the one shipped in python/.
    expect(env.PYTHONPATH.replace(/\/sdk$/, '')).toBe(env.HOME.replace(/\/home$/, ''));
    // With a run user (tests as root) the run's folder is the service's and only passed through (0711); work/ is the run user's.
    const rootMode = TEST_RUN_AS ? '0o711' : '0o700';
    expect(lines.slice(1)).toEqual(['hello from the snapshot', `${rootMode} 0o700 work True`, "['main.py', '--speed', '2', '--name', 'Ada']"]);
    expect(leftInRunsDir(runsDir)).toEqual([]);
  });

  test('a RUNS_DIR others can write to, or a link, is refused before anything is unpacked', async () => {
    const open = tempDir('svc-runs-open-');
    chmodSync(open, 0o777);
    expect((await run({ 'main.py': 'print(1)' }, {}, { runsDir: open })).outcome).toMatchObject({
      state: 'failed',
      stateMessage: expect.stringMatching(/^the run's private folder could not be made: RUNS_DIR .* is writable by other users \(mode 777\)/),
    });
    const link = `${open}-link`;
    symlinkSync(tempDir('svc-runs-target-'), link);
    onTestFinished(() => rmSync(link));
    expect((await run({ 'main.py': 'print(1)' }, {}, { runsDir: link })).outcome.stateMessage).toMatch(/is not a folder \(or is a symbolic link\)/);
    expect(readdirSync(open)).toEqual([]);
  });

  test('on adb hosts the device and its ADB server; with a proxy the three proxy variables', () => {
    const env = buildRunEnvironment({
      path: '/usr/bin:/bin', home: '/runs/x/home', sdkDir: '/sdk', args: { a: [1] }, executionId: 'cr_x', deviceUrl: 'http://h/api/runs/devices/1', token: 't',
      adb: { serial: 'emulator-5554', host: '10.0.0.2', port: 5037 },
      proxyUrl: 'socks5://u:p@proxy.example:1080',
    });
    expect(Object.keys(env).sort()).toEqual(
      ['ALL_PROXY', 'ANDROID_ADB_SERVER_ADDRESS', 'ANDROID_ADB_SERVER_PORT', 'ANDROID_SERIAL', 'HOME', 'HTTPS_PROXY', 'HTTP_PROXY', 'LANG', 'MACRO_ARGS', 'PATH', 'PYTHONPATH', 'PYTHONUNBUFFERED', 'SVC_DEVICE_URL', 'SVC_EXECUTION_ID', 'SVC_RUN_TOKEN'],
    );
    expect(env).toMatchObject({ ANDROID_SERIAL: 'emulator-5554', ANDROID_ADB_SERVER_ADDRESS: '10.0.0.2', ANDROID_ADB_SERVER_PORT: '5037', HTTP_PROXY: 'socks5://u:p@proxy.example:1080', MACRO_ARGS: '{"a":[1]}' });
  });

  test('__cli_args__ is split into argv as a shell would', async () => {
    const { lines } = await run({ 'main.py': 'import sys\nprint(sys.argv[1:])' }, { args: { n: 1, __cli_args__: `--name "Ada L" -v 'x y'` } });
    expect(lines).toEqual(["['--name', 'Ada L', '-v', 'x y']"]);
  });
});

describe('how a run ends', () => {
  test('a non-zero exit fails with its code and the last line written to stderr', async () => {
    const { outcome, lines } = await run({ 'main.py': 'import sys\nprint("working")\nprint("first problem", file=sys.stderr)\nprint("giving up: no cart", file=sys.stderr)\nprint("", file=sys.stderr)\nsys.exit(3)' });
    expect(outcome).toEqual({ state: 'failed', exitCode: 3, errorMessage: 'giving up: no cart', stateMessage: 'the macro exited with code 3' });
    expect(lines).toEqual(['working', '[stderr] first problem', '[stderr] giving up: no cart', '[stderr] ']);
  });

  test('an exception: exit code 1 and its last traceback line', async () => {
    const { outcome } = await run({ 'main.py': 'def f():\n    raise ValueError("no such product")\nf()' });
    expect(outcome).toMatchObject({ state: 'failed', exitCode: 1, errorMessage: 'ValueError: no such product' });
  });

  test('a missing entry, an unusable argument and a missing python3 fail with a message, never a crash', async () => {
    expect((await run({ 'other.py': '' })).outcome).toMatchObject({ state: 'failed', stateMessage: 'the entry file main.py is not in the code snapshot' });
    expect((await run({ 'main.py': '' }, { args: { __cli_args__: 'a | b' } })).outcome).toMatchObject({ state: 'failed', stateMessage: expect.stringContaining('shell operator |') });
    expect((await run({ 'main.py': '' }, {}, { path: '/nonexistent' })).outcome).toMatchObject({ state: 'failed', exitCode: null, stateMessage: expect.stringMatching(/^python3 could not be started: .*ENOENT.*RUN_PATH is \/nonexistent/) });
  });

  test('past RUN_MAX_SECONDS the run is ended failed, saying which limit', async () => {
    const { outcome, ms, lines } = await run({ 'main.py': 'import time\nprint("started")\ntime.sleep(30)' }, {}, { maxSeconds: 1 });
    expect(outcome).toMatchObject({ state: 'failed', stateMessage: 'time limit exceeded: the run was still going after 1 s (RUN_MAX_SECONDS)', exitCode: 143 });
    expect(outcome.errorMessage).toBe(outcome.stateMessage);
    expect(lines).toEqual(['started']);
    expect(ms).toBeGreaterThanOrEqual(1000);
    expect(ms).toBeLessThan(5000);
  });

  test('past RUN_MAX_MEMORY_MB the run is ended failed, saying which limit; below it the same code runs', async () => {
    const macro = 'import sys\nmb = int(sys.argv[2])\nblock = bytearray(mb * 1024 * 1024)\nprint("allocated", len(block) // (1024 * 1024), "MB")';
    const within = await run({ 'main.py': macro }, { args: { mb: 40 } }, { maxMemoryMb: 128 });
    expect(within.outcome.state).toBe('finished');
    expect(within.lines).toEqual(['allocated 40 MB']);
    const over = await run({ 'main.py': macro }, { args: { mb: 1024 } }, { maxMemoryMb: 128 });
    expect(over.outcome).toEqual({
      state: 'failed',
      exitCode: 1,
      stateMessage: 'memory limit exceeded: the run needed more than 128 MB (RUN_MAX_MEMORY_MB)',
      errorMessage: 'memory limit exceeded: the run needed more than 128 MB (RUN_MAX_MEMORY_MB)',
    });
    expect(over.lines.at(-1)).toBe('[stderr] MemoryError');
  });
});

describe('stop', () => {
  /** Running, or stopped but not yet reaped (a zombie holds no resources: it counts as gone). */
  function alive(pid: number): boolean {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  }

  test('SIGTERM reaches the whole process group; the run ends stopped', async () => {
    const stop = new AbortController();
    const sink = new MemorySink();
    const logs = new LogShipper(sink, { intervalMs: 10 });
    const macro = 'import subprocess, time\nchild = subprocess.Popen(["sleep", "300"])\nprint(child.pid, flush=True)\ntime.sleep(300)';
    const running = runPython(runnerSettings(), { executionId: 'cr_stop', zip: zipOf({ 'main.py': macro }), entryPath: 'main.py', args: {}, deviceUrl: 'http://x', token: 't', logs, signal: stop.signal });
    await expect.poll(() => sink.lines.length, { timeout: 10_000 }).toBe(1);
    const childPid = Number(sink.lines[0]);
    expect(alive(childPid)).toBe(true);
    const stoppedAt = performance.now();
    stop.abort();
    expect(await running).toEqual({ state: 'stopped', exitCode: 143, errorMessage: null, stateMessage: 'stopped on request' });
    expect(performance.now() - stoppedAt).toBeLessThan(2000);
    await logs.close();
    await expect.poll(() => alive(childPid), { timeout: 3000 }).toBe(false);
  });

  test('a macro that ignores SIGTERM is killed (SIGKILL) after the grace period', async () => {
    const stop = new AbortController();
    const sink = new MemorySink();
    const logs = new LogShipper(sink, { intervalMs: 10 });
    const macro = 'import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint("ignoring SIGTERM", flush=True)\ntime.sleep(300)';
    const running = runPython(runnerSettings({ killGraceMs: 400 }), { executionId: 'cr_kill', zip: zipOf({ 'main.py': macro }), entryPath: 'main.py', args: {}, deviceUrl: 'http://x', token: 't', logs, signal: stop.signal });
    await expect.poll(() => sink.lines, { timeout: 10_000 }).toEqual(['ignoring SIGTERM']);
    const stoppedAt = performance.now();
    stop.abort();
    expect(await running).toMatchObject({ state: 'stopped', exitCode: 137 });
    const took = performance.now() - stoppedAt;
    expect(took).toBeGreaterThanOrEqual(380);
    expect(took).toBeLessThan(3000);
    await logs.close();
  });

  test('a stop before the process starts runs nothing', async () => {
    const stop = new AbortController();
    stop.abort();
    const { outcome, lines } = await run({ 'main.py': 'print("ran")' }, { signal: stop.signal });
    expect(outcome.state).toBe('stopped');
    expect(lines).toEqual([]);
  });
});
