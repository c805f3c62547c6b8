// A run as RUN_AS_USER set explicitly (the service is root; every run that one user, here nobody): the macro's process has the run user's ids and no
// groups, cannot read the service's files (DATA_DIR's secret.key and SQLite files) or list other
// runs' folders, and still has its code, a writable working folder and HOME, and the SDK. What
// it leaves behind is removed without root following its links. Only root can switch users:
// elsewhere these tests are skipped (CI runs them as root).
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, onTestFinished, test } from 'vitest';
import { ensureSecretKey, loadConfig } from '../../../src/config.js';
import { type Db, openDatabase, sqliteFileIn } from '../../../src/db/database.js';
import { LogShipper } from '../../../src/modules/runs/logs/log-shipper.js';
import { type PythonRunInput, type PythonRunSettings, runPython } from '../../../src/modules/runs/runner/python-run.js';
import { SDK_DIR } from '../../../src/modules/runs/runner/sdk-dir.js';
import { MemorySink, removeTempDirs, runnerSettings, TEST_RUN_USER, tempDir, zipOf } from './helpers/runner.js';

afterAll(removeTempDirs);

const SHARED = TEST_RUN_USER && ({ kind: 'shared', user: TEST_RUN_USER } as const);

async function run(main: string, options: Partial<PythonRunInput> = {}, settings: Partial<PythonRunSettings> = {}) {
  const sink = new MemorySink();
  const logs = new LogShipper(sink, { intervalMs: 10 });
  const config = runnerSettings({ runAs: SHARED, ...settings });
  const outcome = await runPython(config, { executionId: 'cr_0123456789abcdef01234567', zip: zipOf({ 'main.py': main }), entryPath: 'main.py', args: {}, deviceUrl: 'http://127.0.0.1:9/api/runs/devices/7', token: 'svr_test', logs, ...options });
  await logs.close();
  return { outcome, lines: sink.lines, runsDir: config.runsDir };
}

/** A macro that tries to read each path given as `--path` and prints what happened, one line each. */
const TRY_TO_READ = [
  'import os, sys',
  'for path in sys.argv[2::2]:',
  '    try:',
  '        print("READ", path, os.listdir(path) if os.path.isdir(path) else open(path, "rb").read()[:8])',
  '    except PermissionError:',
  '        print("denied", path)',
].join('\n');

/** A DATA_DIR as the embedded default leaves it: the key file and the SQLite database with its -wal and -shm (there while the database is open). */
async function serviceDataDir(): Promise<{ dataDir: string; files: string[]; db: Db }> {
  const dataDir = join(openFolder(), 'data');
  ensureSecretKey(loadConfig({ DATA_DIR: dataDir }));
  const db = openDatabase({ sqliteFile: sqliteFileIn(dataDir) });
  await db.kysely.schema.createTable('t').addColumn('x', 'text').execute();
  const files = ['secret.key', 'service.sqlite', 'service.sqlite-wal', 'service.sqlite-shm'].map((name) => join(dataDir, name));
  expect(files.every((file) => existsSync(file))).toBe(true);
  return { dataDir, files: [...files, dataDir], db };
}

/** A folder anyone may pass through, so that what keeps the run out is DATA_DIR's own mode. */
function openFolder(): string {
  const dir = tempDir('svc-data-');
  chmodSync(dir, 0o755);
  return dir;
}

if (!TEST_RUN_USER) {
  test.skip('runs as RUN_AS_USER: skipped because the tests do not run as root (only root can switch a run to another user; CI runs as root)', () => {});
}

describe.runIf(TEST_RUN_USER)('a run as RUN_AS_USER', () => {
  const user = TEST_RUN_USER!;

  test("the macro cannot read DATA_DIR, secret.key or the SQLite files; run as the service's user it could", async () => {
    const { dataDir, files, db } = await serviceDataDir();
    onTestFinished(() => db.close());
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    for (const file of files.slice(0, 4)) expect(statSync(file).mode & 0o777, file).toBe(0o600);
    const args = { __cli_args__: files.map((file) => `--path ${file}`).join(' ') };
    const { outcome, lines } = await run(TRY_TO_READ, { args });
    expect(outcome.state).toBe('finished');
    expect(lines).toEqual(files.map((file) => `denied ${file}`));
    // The control: the same macro as the service's own user (no RUN_AS_USER) reads them all.
    const control = await run(TRY_TO_READ, { args }, { runAs: null });
    expect(control.lines.map((line) => line.split(' ')[0])).toEqual(files.map(() => 'READ'));
  });

  test('a DATA_DIR an older install left open is made private at start-up', async () => {
    const dataDir = join(openFolder(), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    writeFileSync(join(dataDir, 'secret.key'), `${'ab'.repeat(32)}\n`, { mode: 0o644 });
    expect(ensureSecretKey(loadConfig({ DATA_DIR: dataDir })).toString('hex')).toBe('ab'.repeat(32));
    const { lines } = await run(TRY_TO_READ, { args: { __cli_args__: `--path ${dataDir}/secret.key` } });
    expect(lines).toEqual([`denied ${dataDir}/secret.key`]);
  });

  test("the process has the run user's ids and no groups, and cannot take root's back", async () => {
    const macro = [
      'import os',
      'print(os.getuid(), os.geteuid(), os.getgid(), os.getegid(), os.getgroups())',
      'try:',
      '    os.setuid(0)',
      '    print("became root")',
      'except PermissionError:',
      '    print("cannot become root")',
    ].join('\n');
    const { outcome, lines } = await run(macro);
    expect(outcome.state).toBe('finished');
    expect(lines).toEqual([`${user.uid} ${user.uid} ${user.gid} ${user.gid} []`, 'cannot become root']);
  });

  test('the macro reads its own code, writes in its working folder and HOME, and imports svc_device', async () => {
    const macro = [
      'import os, svc_device',
      'print(open(__file__).read().splitlines()[0])',
      'open("out.txt", "w").write("w")',
      'os.makedirs(os.path.join(os.environ["HOME"], ".cache", "x"))',
      'open(os.path.join(os.environ["HOME"], ".cache", "x", "f"), "w").write("h")',
      'print(open("out.txt").read(), os.stat("out.txt").st_uid, os.stat(os.environ["HOME"]).st_uid, callable(svc_device.tap))',
    ].join('\n');
    const { outcome, lines, runsDir } = await run(macro);
    expect(outcome).toMatchObject({ state: 'finished', exitCode: 0 });
    expect(lines).toEqual(['import os, svc_device', `w ${user.uid} ${user.uid} True`]);
    expect(statSync(runsDir).mode & 0o777).toBe(0o711);
    expect(readdirSync(runsDir)).toEqual([]);
  });

  test("a run cannot list RUNS_DIR or another run's folder", async () => {
    const settings = runnerSettings({ runAs: SHARED });
    const stop = new AbortController();
    const sink = new MemorySink();
    const logs = new LogShipper(sink, { intervalMs: 10 });
    const other = runPython(settings, {
      executionId: 'cr_other', zip: zipOf({ 'main.py': 'import os, time\nopen("private.txt", "w").write("x")\nprint(os.getcwd(), flush=True)\ntime.sleep(60)' }),
      entryPath: 'main.py', args: {}, deviceUrl: 'http://x', token: 't', logs, signal: stop.signal,
    });
    await expect.poll(() => sink.lines.length, { timeout: 10_000 }).toBe(1);
    const otherWork = sink.lines[0];
    const otherFolder = join(otherWork, '..');
    expect(statSync(otherWork).uid).toBe(user.uid);
    expect(statSync(otherFolder).mode & 0o777).toBe(0o711);
    const { outcome, lines } = await run(TRY_TO_READ, { args: { __cli_args__: `--path ${settings.runsDir} --path ${otherFolder}` } }, { runsDir: settings.runsDir });
    stop.abort();
    expect((await other).state).toBe('stopped');
    await logs.close();
    expect(outcome.state).toBe('finished');
    expect(lines).toEqual([`denied ${settings.runsDir}`, `denied ${otherFolder}`]);
    expect(readdirSync(settings.runsDir)).toEqual([]);
  });

  test('what the macro leaves (a folder at mode 000, a link out) is removed as the run user; the link target survives', async () => {
    const outside = join(tempDir('svc-outside-'), 'keep.txt');
    writeFileSync(outside, 'keep');
    const macro = [
      'import os, sys',
      'os.makedirs("locked/inner")',
      'open("locked/inner/f", "w").write("x")',
      'os.chmod("locked", 0)',
      'os.symlink(os.path.dirname(sys.argv[2]), "link")',
      'os.symlink(sys.argv[2], os.path.join(os.environ["HOME"], "file-link"))',
      'print("left")',
    ].join('\n');
    const { outcome, lines, runsDir } = await run(macro, { args: { keep: outside } });
    expect(outcome.state).toBe('finished');
    expect(lines).toEqual(['left']);
    expect(readdirSync(runsDir)).toEqual([]);
    expect(existsSync(outside)).toBe(true);
  });

  test('an SDK installed below a folder the run user cannot pass through still imports: the run has its own copy', async () => {
    const privateSdk = tempDir('svc-sdk-');
    cpSync(SDK_DIR, privateSdk, { recursive: true });
    expect(statSync(privateSdk).mode & 0o777).toBe(0o700);
    const { outcome, lines } = await run('import svc_device, os\nprint(os.path.dirname(os.path.dirname(svc_device.__file__)) == os.environ["PYTHONPATH"])', {}, { sdkDir: privateSdk });
    expect(outcome.state).toBe('finished');
    expect(lines).toEqual(['True']);
  });
});
