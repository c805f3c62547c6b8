// Each run a uid of its own (RUN_UIDS, the default for a root service): two runs at once are
// different users, so one cannot read the other's /proc/<pid>/environ (its SVC_RUN_TOKEN);
// nothing of a run (not even a process that left its group with setsid) outlives it; a stale
// claim's leftover processes are killed before its uid is used again. Only root can switch
// users: elsewhere these tests are skipped (CI runs them as root).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, onTestFinished, test } from 'vitest';
import type { RunAs } from '../../../src/lib/run-user.js';
import { LogShipper } from '../../../src/modules/runs/logs/log-shipper.js';
import { type PythonRunSettings, runPython } from '../../../src/modules/runs/runner/python-run.js';
import { leftInRunsDir, MemorySink, removeTempDirs, runnerSettings, TEST_RUN_AS, TEST_RUN_USER, zipOf } from './helpers/runner.js';

afterAll(removeTempDirs);

/** Starts a run; its log lines arrive in `sink` as they come. */
function start(settings: PythonRunSettings, macro: string, token: string, options: { args?: Record<string, string>; signal?: AbortSignal } = {}) {
  const sink = new MemorySink();
  const logs = new LogShipper(sink, { intervalMs: 10 });
  const done = runPython(settings, { executionId: `cr_${token}`, zip: zipOf({ 'main.py': macro }), entryPath: 'main.py', args: options.args ?? {}, deviceUrl: 'http://x', token, logs, signal: options.signal }).then(async (outcome) => {
    await logs.close();
    return outcome;
  });
  return { sink, done };
}

/** True while `pid` is a live process (not a zombie). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Prints its uid and pid, then waits to be stopped. */
const WAIT = 'import os, time\nprint(os.getuid(), os.getpid(), flush=True)\ntime.sleep(120)';

/** Reads /proc/<pid>/environ of the pid given, and of every process it can, reporting run tokens other than its own. */
const SNOOP = [
  'import os, sys',
  'own = os.environ["SVC_RUN_TOKEN"]',
  'try:',
  '    open(f"/proc/{sys.argv[2]}/environ", "rb").read()',
  '    print("read the other run")',
  'except PermissionError:',
  '    print("denied the other run")',
  'found = set()',
  'for pid in filter(str.isdigit, os.listdir("/proc")):',
  '    try:',
  '        for var in open(f"/proc/{pid}/environ", "rb").read().split(b"\\0"):',
  '            if var.startswith(b"SVC_RUN_TOKEN=") and var[14:].decode() != own:',
  '                found.add(var[14:].decode())',
  '    except OSError:',
  '        pass',
  'print(os.getuid(), "other tokens:", sorted(found))',
].join('\n');

if (TEST_RUN_AS?.kind !== 'own-uid') {
  test.skip('a uid per run: skipped because the tests do not run as root (only root can switch a run to another user; CI runs as root)', () => {});
}

describe.runIf(TEST_RUN_AS?.kind === 'own-uid')('each run a uid of its own', () => {
  async function snoopWhileAnotherRuns(runAs: RunAs) {
    const settings = runnerSettings({ runAs });
    const stop = new AbortController();
    const other = start(settings, WAIT, 'svr_other_secret', { signal: stop.signal });
    await expect.poll(() => other.sink.lines.length, { timeout: 10_000 }).toBe(1);
    const [otherUid, otherPid] = other.sink.lines[0].split(' ');
    const snoop = start(settings, SNOOP, 'svr_snoop', { args: { __cli_args__: `--pid ${otherPid}` } });
    const outcome = await snoop.done;
    stop.abort();
    expect((await other.done).state).toBe('stopped');
    expect(outcome.state).toBe('finished');
    return { otherUid, lines: snoop.sink.lines, runsDir: settings.runsDir };
  }

  test("two runs at once have different uids, and one cannot read the other's environment", async () => {
    const { otherUid, lines, runsDir } = await snoopWhileAnotherRuns(TEST_RUN_AS!);
    const uid = lines[1].split(' ')[0];
    expect(uid).not.toBe(otherUid);
    for (const id of [uid, otherUid]) expect(Number(id)).toBeGreaterThanOrEqual(200000);
    expect(lines).toEqual(['denied the other run', `${uid} other tokens: []`]);
    expect(leftInRunsDir(runsDir)).toEqual([]);
  });

  test.runIf(TEST_RUN_USER)('the control: runs sharing RUN_AS_USER read each other’s token', async () => {
    const { otherUid, lines } = await snoopWhileAnotherRuns({ kind: 'shared', user: TEST_RUN_USER! });
    expect(lines).toEqual(['read the other run', `${otherUid} other tokens: ['svr_other_secret']`]);
  });

  const ESCAPE = 'import subprocess\np = subprocess.Popen(["sleep", "300"], start_new_session=True)\nprint(p.pid, flush=True)';

  test('a process that left its group (setsid) is killed when the run ends', async () => {
    const run = start(runnerSettings(), ESCAPE, 'svr_escape');
    expect((await run.done).state).toBe('finished');
    const pid = Number(run.sink.lines[0]);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  });

  test('what the run left in /tmp, /var/tmp and /dev/shm is removed as the run user; a link it planted goes, its target stays', async () => {
    const tag = `svc-left-${process.pid}-${Date.now()}`;
    const target = join('/tmp', `${tag}-service-file`);
    writeFileSync(target, 'the service keeps this');
    onTestFinished(() => rmSync(target, { force: true }));
    const macro = [
      'import os, sys',
      `tag = ${JSON.stringify(tag)}`,
      'open(f"/tmp/{tag}-file", "w").write("x")',
      'os.makedirs(f"/var/tmp/{tag}-dir/inner")',
      'open(f"/var/tmp/{tag}-dir/inner/f", "w").write("x")',
      'os.chmod(f"/var/tmp/{tag}-dir/inner", 0)',
      'open(f"/dev/shm/{tag}-shm", "w").write("x")',
      `os.symlink(${JSON.stringify(target)}, f"/tmp/{tag}-link")`,
      'print("left")',
    ].join('\n');
    const run = start(runnerSettings(), macro, 'svr_leftovers');
    expect((await run.done).state).toBe('finished');
    expect(run.sink.lines).toEqual(['left']);
    const left = ['/tmp', '/var/tmp', '/dev/shm'].flatMap((dir) => readdirSync(dir).filter((name) => name.startsWith(tag) && !name.endsWith('-service-file')));
    expect(left).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('the service keeps this');
  });

  test.runIf(TEST_RUN_USER)('the control: under a shared RUN_AS_USER it outlives the run', async () => {
    const run = start(runnerSettings({ runAs: { kind: 'shared', user: TEST_RUN_USER! } }), ESCAPE, 'svr_escape_shared');
    expect((await run.done).state).toBe('finished');
    const pid = Number(run.sink.lines[0]);
    onTestFinished(() => {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    });
    expect(alive(pid)).toBe(true);
  });

  test("before a process's first run, every stale claim's processes are ended and the claim released, whatever uid the run gets", async () => {
    const settings = runnerSettings({ runAs: { kind: 'own-uid', range: { first: 277780, last: 277780 } } });
    // A service killed mid-run left its claim on 277781 and its macro running as that uid.
    mkdirSync(join(settings.runsDir, '.uids', '277781'), { recursive: true, mode: 0o700 });
    writeFileSync(join(settings.runsDir, '.uids', '277781', '999999998-1'), '');
    const orphan = spawn('sleep', ['300'], { uid: 277781, gid: 277781, detached: true, stdio: 'ignore' });
    orphan.unref();
    onTestFinished(() => {
      if (alive(orphan.pid!)) process.kill(orphan.pid!, 'SIGKILL');
    });
    await expect.poll(() => alive(orphan.pid!)).toBe(true);
    const run = start(settings, 'import os\nprint(os.getuid())', 'svr_sweep');
    expect(await run.done).toMatchObject({ state: 'finished' });
    expect(run.sink.lines).toEqual(['277780']);
    expect(alive(orphan.pid!)).toBe(false);
    expect(leftInRunsDir(settings.runsDir)).toEqual([]);
  });

  test("a stale claim (its owner dead) is taken over, and what still ran as its uid is killed first", async () => {
    const settings = runnerSettings({ runAs: { kind: 'own-uid', range: { first: 277777, last: 277777 } } });
    mkdirSync(join(settings.runsDir, '.uids', '277777'), { recursive: true, mode: 0o700 });
    writeFileSync(join(settings.runsDir, '.uids', '277777', '999999999-1'), '');
    const leftover = spawn('sleep', ['300'], { uid: 277777, gid: 277777, detached: true, stdio: 'ignore' });
    leftover.unref();
    onTestFinished(() => {
      if (alive(leftover.pid!)) process.kill(leftover.pid!, 'SIGKILL');
    });
    await expect.poll(() => alive(leftover.pid!)).toBe(true);
    const run = start(settings, 'import os\nprint(os.getuid(), os.getgid())', 'svr_stale');
    expect(await run.done).toMatchObject({ state: 'finished' });
    expect(run.sink.lines).toEqual(['277777 277777']);
    expect(alive(leftover.pid!)).toBe(false);
    expect(leftInRunsDir(settings.runsDir)).toEqual([]);
  });
});
