// Claims on the uids of RUN_UIDS, so that no two runs on one machine hold the same uid at once,
// whichever process (serve's runs thread, `svc worker`) starts them. A claim is a folder
// `RUNS_DIR/.uids/<uid>/` (the service's, in a 0700 folder no run can reach) holding one empty
// file named after its owner process: `<pid>-<start time>`, the start time telling a live owner
// from a later process that got the same pid (a restarted container).
//
// A claim appears whole: its folder is made and filled under a temporary name, then renamed
// to `<uid>`, which fails when a claim is there. A claim whose owner is dead is taken over:
// its owner file is deleted (by name, so only that one), then its folder if empty; a rename
// onto an empty folder replaces it. No step can remove a live owner's claim.
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { UidRange } from '../../../lib/run-uids.js';
import { checkRunsDir } from './run-directory.js';

export const CLAIMS_FOLDER = '.uids';

export interface UidClaim {
  uid: number;
  /** Deletes the claim; the uid is free for another run. */
  release(): Promise<void>;
}

/** The start time of a process (clock ticks since boot, /proc/<pid>/stat field 22); undefined when it is gone. */
export async function startTimeOf(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The name (field 2) may hold spaces and parentheses: count from its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

let ownName: Promise<string> | undefined;
/** This process's owner name, `<pid>-<start time>`. */
export function ownerName(): Promise<string> {
  ownName ??= startTimeOf(process.pid).then((start) => `${process.pid}-${start ?? 0}`);
  return ownName;
}

async function alive(owner: string): Promise<boolean> {
  const match = /^(\d+)-(\d+)$/.exec(owner);
  if (!match) return false;
  return (await startTimeOf(Number(match[1]))) === match[2];
}

/** RUNS_DIR/.uids, made 0700 and checked to be the service's own folder. */
export async function claimsFolder(runsDir: string): Promise<string> {
  await checkRunsDir(runsDir);
  const dir = join(runsDir, CLAIMS_FOLDER);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await lstat(dir);
  if (!info.isDirectory() || (typeof process.getuid === 'function' && info.uid !== process.getuid())) {
    throw new Error(`${dir} is not a folder of the service's own`);
  }
  await chmod(dir, 0o700);
  return dir;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Deletes the claim on `path` if every owner in it is dead; true when it did (or the claim was gone). */
async function takeOverIfStale(path: string): Promise<boolean> {
  let owners: string[];
  try {
    owners = await readdir(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return true;
    throw error;
  }
  for (const owner of owners) if (await alive(owner)) return false;
  for (const owner of owners) await unlink(join(path, owner)).catch(() => undefined);
  await rmdir(path).catch(() => undefined);
  return true;
}

/** A staged claim of this process: a folder holding its owner file, renamed onto `<uid>` to claim. */
async function stageClaim(dir: string): Promise<{ staging: string; owner: string; discard(): Promise<void> }> {
  const owner = await ownerName();
  const staging = join(dir, `.new-${owner}-${randomBytes(6).toString('hex')}`);
  await mkdir(staging, { mode: 0o700 });
  await writeFile(join(staging, owner), '', { flag: 'wx' });
  return { staging, owner, discard: () => rm(staging, { recursive: true, force: true }) };
}

/** Renames the staged claim onto `uid` (taking over a stale claim there); null when a live process holds it. */
async function claimOne(dir: string, staged: { staging: string; owner: string }, uid: number): Promise<UidClaim | null> {
  const path = join(dir, String(uid));
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await rename(staged.staging, path);
      return { uid, release: () => releaseClaim(path, staged.owner) };
    } catch (error) {
      if (errorCode(error) !== 'ENOTEMPTY' && errorCode(error) !== 'EEXIST') throw error;
    }
    if (!(await takeOverIfStale(path))) return null;
  }
  return null;
}

/** Claims a free uid of `range`, starting at a random one; throws when every uid is held by a live process. */
export async function claimUid(runsDir: string, range: UidRange): Promise<UidClaim> {
  const dir = await claimsFolder(runsDir);
  const staged = await stageClaim(dir);
  const size = range.last - range.first + 1;
  const start = Math.floor(Math.random() * size);
  try {
    for (let i = 0; i < size; i += 1) {
      const claim = await claimOne(dir, staged, range.first + ((start + i) % size));
      if (claim) return claim;
    }
  } finally {
    await staged.discard();
  }
  throw new Error(`every uid of RUN_UIDS (${range.first}-${range.last}) is held by a run`);
}

/**
 * Claims, one at a time, every uid whose claim is stale (its owner died: a service killed
 * mid-run), so the caller can end what still runs as it: a macro of a dead worker is not
 * killed by anyone else until its uid happens to be picked again. Claims held by live
 * processes are left alone.
 */
export async function* staleClaims(runsDir: string): AsyncGenerator<UidClaim> {
  const dir = await claimsFolder(runsDir);
  for (const name of await readdir(dir)) {
    if (!/^\d+$/.test(name) || !(await staleOwners(join(dir, name)))) continue;
    const staged = await stageClaim(dir);
    try {
      const claim = await claimOne(dir, staged, Number(name));
      if (claim) yield claim;
    } finally {
      await staged.discard();
    }
  }
}

/** True when the claim on `path` has owners and all of them are dead. */
async function staleOwners(path: string): Promise<boolean> {
  const owners = await readdir(path).catch(() => [] as string[]);
  if (owners.length === 0) return false;
  for (const owner of owners) if (await alive(owner)) return false;
  return true;
}

async function releaseClaim(path: string, owner: string): Promise<void> {
  await unlink(join(path, owner)).catch(() => undefined);
  await rmdir(path).catch(() => undefined);
}
