// Hostile macros against the run sandbox (decisions.md §10, "The sandbox"; issue 18): each
// test is one wall, tried the way a customer's code would, through the real routes and a run
// worker, on both engines. Every attempt stays on this machine: refused addresses are refused
// by the egress proxy before it connects anywhere. Each wall fails without the sandbox
// (runner-walls.test.ts runs the same probes with RUN_SANDBOX=off as the control).
import { networkInterfaces } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cloudDevice, type CloudWorld, cloudWorld, codeMacro, ended, logLines, startRun } from '../helpers/cloud-world.js';
import { leftInRunsDir, removeTempDirs, tempDir } from '../helpers/runner.js';

const LIMITS = { RUN_SANDBOX: 'required', RUN_MAX_PROCESSES: '64', RUN_MAX_DISK_MB: '16', RUN_MAX_LOG_MB: '1' };
let w: CloudWorld;
let runsDir: string;
let apiPort: number;

beforeAll(async () => {
  w = await cloudWorld({ env: LIMITS });
  runsDir = tempDir();
  w.worker({ runsDir });
  apiPort = Number(new URL(w.baseUrl).port);
});
afterAll(async () => {
  await w.close();
  removeTempDirs();
});

/** Runs `code` (main.py) on a fresh device; answers the ended run, its history record and its log. */
async function runMacro(code: string) {
  const run = await startRun(w, await cloudDevice(w), { macro_id: await codeMacro(w, { 'main.py': code }) });
  const { run: done, history } = await ended(w, run.id, 40_000);
  return { run: done, history, lines: await logLines(w, run.execution_id) };
}

/** Python that asks the run's egress proxy for `target` (absolute URL, or host:port for CONNECT) and prints the status. */
const VIA_PROXY = [
  'import http.client, os',
  'def via_proxy(target):',
  '    c = http.client.HTTPConnection("127.0.0.1", 3128, timeout=10)',
  '    try:',
  '        c.request("CONNECT" if "://" not in target else "GET", target)',
  '        r = c.getresponse()',
  '        return r.status, r.read().decode()[:200]',
  '    except OSError as e:',
  '        return "error", str(e)',
].join('\n');

const hostAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry && !entry.internal && entry.family === 'IPv4')
    .map((entry) => entry!.address);

test('the process list shows only the run’s own processes', async () => {
  const { run, lines } = await runMacro(
    'import os\npids = [p for p in os.listdir("/proc") if p.isdigit()]\nprint(len(pids), sorted({open(f"/proc/{p}/cmdline").read().split(chr(0))[0] for p in pids}))',
  );
  expect(run.state, JSON.stringify(lines)).toBe('finished');
  const [count, names] = [Number(lines[0].split(' ')[0]), lines[0].slice(lines[0].indexOf(' ') + 1)];
  expect(count).toBeLessThanOrEqual(5);
  expect(names).toBe("['bwrap', 'python3', 'socat']");
});

test('the API port, PostgreSQL, Redis and the host’s own address refuse, directly and through the egress proxy', async () => {
  const targets = [`127.0.0.1:${apiPort}`, '127.0.0.1:5432', '127.0.0.1:6379', ...hostAddresses().map((a) => `${a}:${apiPort}`)];
  const { run, lines } = await runMacro(
    [
      VIA_PROXY,
      'import socket',
      `for target in ${JSON.stringify(targets)}:`,
      '    host, port = target.rsplit(":", 1)',
      '    try:',
      '        socket.create_connection((host, int(port)), timeout=3).close(); print("connected", target)',
      '    except OSError as e:',
      '        print("no", target)',
      `    print(target, via_proxy("http://" + target + "/healthz")[0])`,
      `print("localhost", via_proxy("http://localhost:${apiPort}/healthz")[0], "::1", via_proxy("[::1]:${apiPort}")[0], "0.0.0.0", via_proxy("0.0.0.0:${apiPort}")[0])`,
      'print("unix sockets", [p for p in ("/run/postgresql", "/var/run/postgresql", "/var/run/redis", "/run/redis") if os.path.exists(p)])',
    ].join('\n'),
  );
  expect(run.state, JSON.stringify(lines)).toBe('finished');
  expect(lines).toEqual([
    ...targets.flatMap((target) => [`no ${target}`, `${target} 403`]),
    'localhost 403 ::1 403 0.0.0.0 403',
    'unix sockets []',
  ]);
});

test('cloud metadata, private, CGNAT, multicast and IPv6-local addresses are refused before any connection', async () => {
  const targets = ['http://169.254.169.254/latest/meta-data/', '169.254.169.254:80', '10.0.0.1:443', 'http://192.168.1.1/', '172.16.0.1:22', '100.64.0.1:443', '224.0.0.1:80', '[fd00::1]:443', '[fe80::1]:443', '[::ffff:169.254.169.254]:80', '[::ffff:127.0.0.1]:5432'];
  const { run, lines } = await runMacro([VIA_PROXY, `for t in ${JSON.stringify(targets)}:`, '    status, body = via_proxy(t)', '    print(status, "refused by the run\'s egress policy" in body)'].join('\n'));
  expect(run.state, JSON.stringify(lines)).toBe('finished');
  expect(lines).toEqual(targets.map(() => '403 True'));
});

test('the root file system refuses writes; DATA_DIR, RUNS_DIR and the host’s folders are not there', async () => {
  const { run, lines } = await runMacro(
    [
      'import os',
      'for path in ("/x", "/usr/x", "/etc/passwd", "/bin/x", "/dev/x", "/run/svc-in/code/x"):',
      '    try:',
      '        open(path, "w").write("x"); print("wrote", path)',
      '    except OSError as e:',
      '        print(path, e.strerror)',
      `print([p for p in (${JSON.stringify(w.t.config.dataDir)}, ${JSON.stringify(runsDir)}, "/root", "/home", "/work", "/var") if os.path.exists(p)])`,
      'print(os.getcwd(), os.environ["HOME"], os.path.realpath("/tmp"))',
    ].join('\n'),
  );
  expect(run.state, JSON.stringify(lines)).toBe('finished');
  expect(lines.slice(0, 6)).toEqual(['/x', '/usr/x', '/etc/passwd', '/bin/x', '/dev/x', '/run/svc-in/code/x'].map((path) => `${path} Read-only file system`));
  expect(lines.slice(6)).toEqual(['[]', '/run/svc/work /run/svc/home /run/svc/tmp']);
});

test('two runs at once do not see each other’s /tmp', async () => {
  const writer = 'import os, time\nopen("/tmp/secret-of-a", "w").write("a")\nprint(os.listdir("/tmp"))\ntime.sleep(4)';
  const reader = 'import os, time\ntime.sleep(2)\nprint(os.listdir("/tmp"))';
  const [a, b] = await Promise.all([runMacro(writer), runMacro(reader)]);
  expect([a.run.state, b.run.state]).toEqual(['finished', 'finished']);
  expect(a.lines).toEqual(["['secret-of-a']"]);
  expect(b.lines).toEqual(['[]']);
});

test('a fork bomb stops at RUN_MAX_PROCESSES while /healthz answers within a second; nothing of the run survives it', async () => {
  const code = [
    'import errno, os, time',
    'n = 0',
    'try:',
    '    while n < 10000:',
    '        if os.fork() == 0:',
    '            time.sleep(60); os._exit(0)',
    '        n += 1',
    'except OSError as e:',
    '    print("fork refused after", n, errno.errorcode[e.errno], flush=True)',
    'time.sleep(1)',
  ].join('\n');
  const device = await cloudDevice(w);
  const run = await startRun(w, device, { macro_id: await codeMacro(w, { 'main.py': code }) });
  const slowest: number[] = [];
  while ((await logLines(w, run.execution_id)).length === 0) {
    const started = performance.now();
    expect((await fetch(`${w.baseUrl}/healthz`)).status).toBe(200);
    slowest.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(Math.max(...slowest)).toBeLessThan(1000);
  const { run: done } = await ended(w, run.id, 40_000);
  expect(done.state).toBe('finished');
  const [line] = await logLines(w, run.execution_id);
  expect(line).toMatch(/^fork refused after \d+ EAGAIN$/);
  expect(Number(line.split(' ')[3])).toBeLessThan(64);
  expect(processesOf(run.execution_id)).toEqual([]);
  expect(leftInRunsDir(runsDir)).toEqual([]);
}, 60_000);

/** Host processes whose environment names the run. */
function processesOf(executionId: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`SVC_EXECUTION_ID=${executionId}`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

test('a disk filler gets "no space" at RUN_MAX_DISK_MB, counted over /tmp, HOME and the working folder together', async () => {
  const { run, lines } = await runMacro(
    [
      'import errno, os',
      'written = 0',
      'chunk = b"x" * (256 * 1024)',
      'for i, folder in enumerate(["/tmp", os.environ["HOME"], os.getcwd()] * 100):',
      '    try:',
      '        with open(os.path.join(folder, f"fill{i}"), "wb") as f:',
      '            for _ in range(8): f.write(chunk); f.flush(); written += len(chunk)',
      '    except OSError as e:',
      '        print(errno.errorcode[e.errno], written // (1024 * 1024)); break',
    ].join('\n'),
  );
  expect(run.state, JSON.stringify(lines)).toBe('finished');
  const [code, mb] = lines[0].split(' ');
  expect(code).toBe('ENOSPC');
  expect(Number(mb)).toBeGreaterThanOrEqual(14);
  expect(Number(mb)).toBeLessThanOrEqual(16);
});

test('a log flood stores about RUN_MAX_LOG_MB, says how many lines were dropped, and the run finishes', async () => {
  const { run, lines } = await runMacro('for i in range(20000):\n    print(f"line {i:05d} " + "x" * 90)\nprint("done")');
  expect(run.state).toBe('finished');
  // 1 MiB of 102-byte lines (101 characters and the line break): lines 0 to 10279 are kept,
  // the other 9,720 and "done" dropped. `lines` is the newest page the cursor route gives.
  const kept = Math.floor((1024 * 1024) / 102);
  expect(lines.at(-2)).toMatch(new RegExp(`^line ${String(kept - 1).padStart(5, '0')} x{90}$`));
  expect(lines.at(-1)).toBe(`[svc] log limit reached: this run's log is capped at 1 MB (RUN_MAX_LOG_MB); ${20001 - kept} later lines were dropped`);
}, 60_000);

test('a normal macro still drives its device through svc_device and logs', async () => {
  const { run, history, lines } = await runMacro(
    'import svc_device as d\nprint(d.current_app())\nprint(len(d.screenshot()) > 1000)\nd.tap(540, 1200)\nd.log("tapped")\nprint(len(d.ui_tree()) > 0)',
  );
  expect(run.state, JSON.stringify(lines)).toBe('finished');
  expect(history.status).toBe('completed');
  expect(lines.slice(1)).toEqual(['True', 'tapped', 'True']);
});
