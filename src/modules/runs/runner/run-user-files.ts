// Under RUN_AS_USER (docs/runs.md, "What a run can reach") a run's `work/` and `home/` belong
// to the run user, handed over once the snapshot is unpacked and before anything of the run
// starts. Once handed over, what is in them is the run's to change, so the service never
// removes it with its own (root) rights: a process of the run (or of another run, which has
// the same user) could swap a folder for a link mid-removal and have root delete files
// elsewhere. The run user empties them instead, and the service then removes only the empty
// folders, which sit in its own 0711 run folder where the run user cannot change anything.
import { execFile } from 'node:child_process';
import { lchown, readdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunUser } from '../../../lib/run-user.js';

/** Gives `dir` and everything in it to the run user. Only for a tree nobody else can reach yet. */
export async function chownTree(dir: string, user: RunUser): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(path, user);
    else await lchown(path, user.uid, user.gid);
  }
  await lchown(dir, user.uid, user.gid);
}

// Owner rights back first (a run may have left a folder at mode 000), then delete depth
// first without following links. GNU and busybox chmod -R and find both do so by default.
const EMPTY_FOLDERS = 'chmod -R u+rwx -- "$@" 2>/dev/null; exec find "$@" -mindepth 1 -delete';
/** The system folders for `sh`, `chmod` and `find`, whatever RUN_PATH says. */
const SYSTEM_PATH = '/usr/bin:/bin';
const EMPTYING_LIMIT_MS = 60_000;

/**
 * Empties `dirs` as the run user, then removes them and `root` (non-recursive rmdir, as the
 * service). A folder that cannot be emptied (a process of the run still writing to it) is
 * left behind: a leftover is better than a removal with root's rights.
 */
export async function removeAsRunUser(root: string, dirs: string[], user: RunUser): Promise<void> {
  await new Promise<void>((resolve) => {
    execFile('/bin/sh', ['-c', EMPTY_FOLDERS, 'sh', ...dirs], { uid: user.uid, gid: user.gid, cwd: '/', env: { PATH: SYSTEM_PATH }, timeout: EMPTYING_LIMIT_MS, killSignal: 'SIGKILL' }, () => resolve());
  });
  for (const path of [...dirs, root]) {
    try {
      await rmdir(path);
    } catch {
      return;
    }
  }
}
