// The sandbox at the runner (decisions.md §10): the egress proxy resolves names with a resolver
// the test controls and refuses a name that resolves to metadata, a private range or this
// machine, even with RUN_ALLOW_PRIVATE_NETWORKS for the last; and the control: the same
// probes with RUN_SANDBOX=off reach the machine, which is what the sandbox takes away.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunSandboxSettings } from '../../../../src/config.js';
import { LogShipper } from '../../../../src/modules/runs/logs/log-shipper.js';
import { runPython } from '../../../../src/modules/runs/runner/python-run.js';
import { MemorySink, removeTempDirs, runnerSettings, zipOf } from '../helpers/runner.js';

const SANDBOX: RunSandboxSettings = { mode: 'required', maxProcesses: 64, maxDiskMb: 16, maxLogMb: 1, allowPrivateNetworks: false };
const NAMES: Record<string, string[]> = {
  'metadata.evil.test': ['169.254.169.254'],
  'intranet.evil.test': ['10.1.2.3'],
  'mixed.evil.test': ['93.184.216.34', '192.168.0.10'],
  'home.evil.test': ['127.0.0.1'],
  'mapped.evil.test': ['::ffff:10.0.0.1'],
};
let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('the service'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  removeTempDirs();
});

async function run(code: string, sandbox: RunSandboxSettings) {
  const sink = new MemorySink();
  const logs = new LogShipper(sink);
  const resolver = async (host: string) => {
    const found = NAMES[host];
    if (!found) throw new Error(`${host} does not resolve`);
    return found;
  };
  const outcome = await runPython(runnerSettings({ sandbox, resolver }), {
    executionId: 'cr_0123456789abcdef01234567',
    zip: zipOf({ 'main.py': code }),
    entryPath: 'main.py',
    args: {},
    deviceUrl: 'http://127.0.0.1:9/api/runs/devices/7',
    token: 'svr_test',
    logs,
  });
  await logs.close();
  return { outcome, lines: sink.lines };
}

const ASK_PROXY = [
  'import http.client',
  'def ask(target):',
  '    c = http.client.HTTPConnection("127.0.0.1", 3128, timeout=10)',
  '    c.request("GET", target)',
  '    r = c.getresponse()',
  '    return r.status, r.read().decode()',
].join('\n');

test('names that resolve to metadata, private or mixed addresses are refused by the egress proxy, naming the address', async () => {
  const names = Object.keys(NAMES).filter((name) => name !== 'home.evil.test');
  const { outcome, lines } = await run([ASK_PROXY, `for name in ${JSON.stringify(names)}:`, '    print(*ask(f"http://{name}/"))'].join('\n'), SANDBOX);
  expect(outcome.state, lines.join('\n')).toBe('finished');
  expect(lines).toEqual([
    "403 refused by the run's egress policy: metadata.evil.test: resolves to 169.254.169.254, which is not a public address",
    "403 refused by the run's egress policy: intranet.evil.test: resolves to 10.1.2.3, which is not a public address",
    "403 refused by the run's egress policy: mixed.evil.test: resolves to 192.168.0.10, which is not a public address",
    "403 refused by the run's egress policy: mapped.evil.test: resolves to ::ffff:10.0.0.1, which is not a public address",
  ]);
});

test('RUN_ALLOW_PRIVATE_NETWORKS lifts the address rule but never lets a run reach this machine', async () => {
  const { outcome, lines } = await run(
    [ASK_PROXY, `print(*ask("http://home.evil.test:${port}/"))`, `print(*ask("http://127.0.0.1:${port}/"))`, `print(*ask("http://localhost:${port}/"))`].join('\n'),
    { ...SANDBOX, allowPrivateNetworks: true },
  );
  expect(outcome.state, lines.join('\n')).toBe('finished');
  expect(lines).toEqual([
    "403 refused by the run's egress policy: home.evil.test: 127.0.0.1 is this machine, which runs may not reach",
    "403 refused by the run's egress policy: 127.0.0.1: 127.0.0.1 is this machine, which runs may not reach",
    "403 refused by the run's egress policy: localhost: 127.0.0.1 is this machine, which runs may not reach",
  ]);
});

test('the control: unsandboxed, the same macro sees the machine’s processes and reaches a service on its loopback', async () => {
  const code = [
    'import os, urllib.request',
    'print(len([p for p in os.listdir("/proc") if p.isdigit()]) > 5)',
    `print(urllib.request.urlopen("http://127.0.0.1:${port}/", timeout=5).read().decode())`,
  ].join('\n');
  const off = await run(code, { ...SANDBOX, mode: 'off' });
  expect(off.lines).toEqual(['True', 'the service']);
  const on = await run(code, SANDBOX);
  expect(on.outcome.state).toBe('failed');
  expect(on.lines[0]).toBe('False');
  expect(on.outcome.errorMessage).toMatch(/Connection refused/);
});
