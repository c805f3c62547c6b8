// A run's private folder under RUNS_DIR, so that nobody else on the machine can read the code
// or what the run writes: `work/` holds the unpacked snapshot and is the working directory,
// `home/` is HOME. The zip goes through the same hardened reader as an upload (no absolute or
// `..` paths, no links, capped files and bytes), and every file is created exclusively inside
// `work/`. The folder is removed when the run ends.
//
// Without a run user (the service is not root) everything is the service's, mode 0700. With
// RUN_AS_USER, RUNS_DIR and the run's folder are the service's, mode 0711 (the run user passes
// through but cannot list them, so it does not learn other runs' folders), and `work/` and
// `home/` are handed to the run user (0700) once the snapshot is unpacked (run-user-files.ts).
import { chmod, cp, lstat, mkdir, mkdtemp, open, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { RunUser } from '../../../lib/run-user.js';
import { readZipFiles, SNAPSHOT_LIMITS } from '../../code-sync/index.js';
import { chownTree, removeAsRunUser } from './run-user-files.js';

export interface RunDirectory {
  root: string;
  work: string;
  home: string;
  /** Gives `work/` and `home/`, with the unpacked snapshot, to the run user (nothing without one). */
  handOver(): Promise<void>;
  remove(): Promise<void>;
}

/**
 * RUNS_DIR must be ours and writable by nobody else: whoever can write to it could swap a
 * run's folder for a link while the code is unpacked and have it written elsewhere.
 */
export async function checkRunsDir(runsDir: string): Promise<void> {
  const info = await lstat(runsDir);
  const problem = !info.isDirectory()
    ? 'is not a folder (or is a symbolic link)'
    : typeof process.getuid === 'function' && info.uid !== process.getuid()
      ? 'belongs to another user'
      : (info.mode & 0o022) !== 0
        ? `is writable by other users (mode ${(info.mode & 0o777).toString(8)}); make it 0700 or 0755`
        : undefined;
  if (problem) throw new Error(`RUNS_DIR ${runsDir} ${problem}`);
}

/** Makes RUNS_DIR if needed and checks it; 0711 when runs switch users (they pass through to their own folders). */
export async function prepareRunsDir(runsDir: string, switching: boolean): Promise<void> {
  await mkdir(runsDir, { recursive: true, mode: switching ? 0o711 : 0o700 });
  await checkRunsDir(runsDir);
  if (switching) await chmod(runsDir, 0o711);
}

export async function createRunDirectory(runsDir: string, executionId: string, runUser: RunUser | null = null): Promise<RunDirectory> {
  await prepareRunsDir(runsDir, runUser !== null);
  // mkdtemp makes the folder 0700 with a name nobody can guess or take first.
  const root = await mkdtemp(join(runsDir, `${executionId.replace(/[^A-Za-z0-9_-]/g, '_')}-`));
  if (runUser) await chmod(root, 0o711);
  const work = join(root, 'work');
  const home = join(root, 'home');
  await mkdir(work, { mode: 0o700 });
  await mkdir(home, { mode: 0o700 });
  let handedOver = false;
  return {
    root,
    work,
    home,
    async handOver() {
      if (!runUser) return;
      handedOver = true;
      await chownTree(work, runUser);
      await chownTree(home, runUser);
    },
    // Before the hand-over the tree is the service's alone, so its own rm is safe; so is the
    // SDK copy's (the service's, and nobody else may write in it).
    async remove() {
      if (!(runUser && handedOver)) return rm(root, { recursive: true, force: true, maxRetries: 3 });
      await rm(join(root, 'sdk'), { recursive: true, force: true, maxRetries: 3 });
      await removeAsRunUser(root, [work, home], runUser);
    },
  };
}

/** Writes the zip's files under `work`; answers how many. */
export async function unpackSnapshot(zip: Buffer, work: string): Promise<number> {
  let files = 0;
  const base = resolve(work);
  await readZipFiles(zip, SNAPSHOT_LIMITS, async (path, data) => {
    const target = resolve(base, path);
    // The reader already refused `..` and absolute names; this holds even if it did not.
    const inside = relative(base, target);
    if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || resolve(base, inside) !== target) {
      throw new Error(`zip entry ${JSON.stringify(path)} would land outside the run folder`);
    }
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    // 'wx': never follows or overwrites anything already there.
    const handle = await open(target, 'wx', 0o600);
    try {
      for await (const chunk of data) await handle.write(chunk);
    } finally {
      await handle.close();
    }
    files += 1;
  });
  return files;
}

/** True when `entryPath` is a file of the unpacked tree. */
export async function hasEntry(work: string, entryPath: string): Promise<boolean> {
  const target = resolve(work, entryPath);
  if (relative(resolve(work), target).startsWith('..')) return false;
  return stat(target).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * A copy of the Python SDK in the run's folder (`sdk/`, the service's, readable by all, 0755 and
 * 0644): the run's PYTHONPATH. The installed SDK may sit below a folder the run user cannot
 * pass through (a checkout under /root or a private temporary folder); the copy is always
 * reachable, since the run's folder lets the run user through. It is a few kilobytes.
 */
export async function copySdk(sdkDir: string, root: string): Promise<string> {
  const target = join(root, 'sdk');
  await cp(sdkDir, target, { recursive: true, filter: (source) => !source.includes('__pycache__') });
  const open = async (dir: string): Promise<void> => {
    await chmod(dir, 0o755);
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await open(path);
      else await chmod(path, 0o644);
    }
  };
  await open(target);
  return target;
}
