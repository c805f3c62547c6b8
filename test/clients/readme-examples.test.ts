// README's "Use it from a script": the SDK example and the command-line example, run as
// written against the real service (only the placeholders, the key, the address and the ids,
// are filled in), so the examples cannot rot.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { SignedUpUser } from '../helpers/users.js';
import { blockMacro, type ClientWorld, cloudDevice, COMPLETES_LOG, keyFor, newUser, PROGRAMS, startService } from './harness.js';

let world: ClientWorld;
let ada: SignedUpUser;
let key: string;
let device: number;
let macro: number;
const dirs: string[] = [];

function section(): string {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf('## Use it from a script');
  expect(start, 'README has a "Use it from a script" section').toBeGreaterThan(0);
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

function block(language: string): string {
  const match = section().match(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``));
  expect(match, `a \`\`\`${language} block in the section`).not.toBeNull();
  return match![1];
}

/** `text` with `from` replaced by `to`, which must be there (else the README changed under the test). */
function fill(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.split(from).join(to);
}

function run(file: string, args: string[], options: { cwd?: string; env: Record<string, string> }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(file, args, { cwd: options.cwd, env: { ...process.env, BASE_URL: '', ...options.env } }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  world = await startService();
  ada = await newUser(world);
  key = await keyFor(world, ada);
  device = await cloudDevice(world, ada);
  macro = await blockMacro(world, ada, 'Completes', PROGRAMS.completes);
});
afterAll(async () => {
  await world.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('the SDK example runs as written: the log as it arrives, then the outcome', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-example-'));
  dirs.push(dir);
  // The package as a project that installed it sees it.
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(resolve('clients/typescript'), join(dir, 'node_modules', 'android-automation-client'), 'dir');
  writeFileSync(join(dir, 'run.mjs'), block('js'));
  const result = await run(process.execPath, ['run.mjs'], { cwd: dir, env: { SVC_API_KEY: key, SVC_BASE_URL: world.baseUrl, DEVICE_ID: String(device), MACRO_ID: String(macro) } });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(new RegExp(`^${COMPLETES_LOG.join('\\n')}\\nrun \\d+ finished\\n$`));
});

test('the command-line example runs as written: devices, a followed run that completes, JSON rows', async () => {
  let script = block('sh');
  script = fill(script, 'SVC_API_KEY=svc_…', `SVC_API_KEY=${key}`);
  script = fill(script, 'SVC_BASE_URL=http://localhost:8080', `SVC_BASE_URL=${world.baseUrl}`);
  script = fill(script, '--device 12', `--device ${device}`);
  script = fill(script, '--macro 7', `--macro ${macro}`);
  // As written: npx runs the checkout's own bin on the build made before the tests (`--no`: never install).
  script = fill(script, 'npx svc', 'npx --no svc');
  const result = await run('bash', ['-euo', 'pipefail', '-c', script], { env: {} });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(new RegExp(`^ID\\s+NAME\\s+KIND\\s+STATE\\s+PORT\\s+GROUP\\s+RUNS\\n${device}\\s+Cloud phone\\s+cloud\\s`));
  expect(result.stdout).toContain(`${COMPLETES_LOG.join('\n')}\n`);
  expect(result.stdout).not.toContain('not completed');
  const rows = JSON.parse(result.stdout.slice(result.stdout.indexOf('\n[') + 1)) as { status: string; macro_id: number }[];
  // This run and the SDK example's, newest first, at most the 5 asked for.
  expect(rows.length).toBeGreaterThanOrEqual(1);
  expect(rows.length).toBeLessThanOrEqual(5);
  for (const row of rows) expect(row).toMatchObject({ status: 'completed', macro_id: macro });
  // Three npx starts (npm's own start-up each time) besides the run itself.
}, 120_000);
