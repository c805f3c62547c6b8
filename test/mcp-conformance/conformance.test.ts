// The official MCP conformance suite (@modelcontextprotocol/conformance, its server scenarios)
// against /mcp, as an outside check on the tool server: tests written by the people who wrote
// the server share their blind spots, the specification maintainers' suite does not. It runs
// offline from node_modules, on Node 20 through a small hook (node20-fs-glob.mjs). A scenario
// may fail only if expected-failures.yml lists it with its reason; the suite itself also fails
// when a listed scenario passes, so the list cannot go stale. The suite's client sends no
// credential, so it reaches /mcp through key-proxy.ts; KEEP_CONFORMANCE=1 keeps its results.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { createKey, signUp } from '../helpers/users.js';
import { freePort } from '../modules/mcp/helpers/client.js';
import { type KeyProxy, startKeyProxy } from './key-proxy.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const SUITE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const EXPECTED_FAILURES = here('./expected-failures.yml');

let t: Awaited<ReturnType<typeof createTestApp>>;
let proxy: KeyProxy;
let results: string;

beforeAll(async () => {
  const proxyPort = await freePort();
  const servicePort = await freePort();
  t = await createTestApp({ env: { BASE_URL: `http://127.0.0.1:${proxyPort}` } });
  await t.app.listen({ host: '127.0.0.1', port: servicePort });
  const { key } = await createKey(t.app, await signUp(t.app), { name: 'conformance' });
  proxy = await startKeyProxy(proxyPort, { port: servicePort }, key);
  results = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  if (process.env.KEEP_CONFORMANCE) console.log(`conformance results (checks.json per scenario) kept in ${results}`);
});
afterAll(async () => {
  await proxy?.close();
  await t?.close();
  if (results && !process.env.KEEP_CONFORMANCE) await rm(results, { recursive: true, force: true });
});

function runSuite(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', here('./node20-fs-glob.mjs'), SUITE, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test('every expected failure names its reason', async () => {
  const entries = (await readFile(EXPECTED_FAILURES, 'utf8')).split('\n').filter((line) => /^\s*-/.test(line));
  expect(entries.length).toBeGreaterThan(0);
  expect(entries.filter((line) => !/^\s*-\s+[a-z0-9-]+\s+#\s*\S.{10,}/.test(line)), 'each entry is `- scenario  # why it fails`').toEqual([]);
});

test('the server scenarios pass, but for the expected failures', { timeout: 120_000 }, async () => {
  const { code, output } = await runSuite(['server', '--url', `${proxy.url}/mcp`, '--expected-failures', EXPECTED_FAILURES, '--output-dir', results]);
  const verdict = output.slice(output.indexOf('=== SUMMARY ==='));
  expect(code, verdict).toBe(0);
  expect(output).toContain('Baseline check passed');
});
