// What a run with a uid of its own left in the folders every user may write to (/tmp, /var/tmp,
// /dev/shm), removed when the run ends and before the uid is given back: the next run that
// gets the same uid from RUN_UIDS must not find (or be handed) the files of an earlier one.
// The removal runs as that uid, never with the service's rights: the run could have planted
// links there, and as itself it can only delete what it could delete anyway. Entries it does
// not own are left alone; the sticky bit on those folders lets an owner delete only its own.
import { execFile } from 'node:child_process';
import type { RunUser } from '../../../lib/run-user.js';

export const SHARED_WRITABLE = ['/tmp', '/var/tmp', '/dev/shm'];
// Top-level entries the uid owns, removed depth first without following links; owner rights
// back first in them (a run may have left a folder at mode 000). Missing folders are skipped.
const REMOVE = 'uid=$1; shift; for d in "$@"; do [ -d "$d" ] || continue; find "$d" -mindepth 1 -maxdepth 1 -user "$uid" -exec chmod -R u+rwx -- {} + 2>/dev/null; find "$d" -mindepth 1 -maxdepth 1 -user "$uid" -exec rm -rf -- {} + 2>/dev/null; done; exit 0';
const LIMIT_MS = 60_000;

/** Removes what `user` owns at the top of `folders`, as that user; never throws. */
export function removeLeftoversOf(user: RunUser, folders: string[] = SHARED_WRITABLE): Promise<void> {
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', REMOVE, 'sh', String(user.uid), ...folders], { uid: user.uid, gid: user.gid, cwd: '/', env: { PATH: '/usr/bin:/bin' }, timeout: LIMIT_MS, killSignal: 'SIGKILL' }, () => resolve());
  });
}
