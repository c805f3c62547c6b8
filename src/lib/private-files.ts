// The service's own files (DATA_DIR, secret.key, the SQLite database and its -wal and -shm
// files) are for the service's user alone: a cloud run, which runs as another user
// (RUN_AS_USER), and anyone else on the machine must not read them. Modes are set explicitly,
// not left to the umask, and tightened when an older install left them open.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Makes the folder (and missing parents, with the usual modes) and takes every permission on it from group and others. */
export function makePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true });
  tighten(dir);
}

/** Creates the file empty with mode 0600 when it is missing; takes every permission on it from group and others. */
export function makePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  tighten(file);
}

/** As makePrivateFile, for a file that need not exist (SQLite makes its -wal and -shm files with the database's mode). */
export function tightenIfPresent(file: string): void {
  if (existsSync(file)) tighten(file);
}

function tighten(path: string): void {
  const mode = statSync(path).mode & 0o7777;
  if ((mode & 0o077) === 0) return;
  try {
    chmodSync(path, mode & 0o700);
  } catch (error) {
    // Only the owner (or root) may change a mode: a file another user owns is theirs to guard.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}
