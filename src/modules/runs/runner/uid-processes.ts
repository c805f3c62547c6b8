// Ends every process of a uid: what a run left behind (a process that left its group with
// setsid, or was started by one) must not outlive the run, or it could watch the next run that
// gets the same uid. Processes are found by the `Uid:` line of /proc/<pid>/status (any of real,
// effective, saved or filesystem uid) and killed with SIGKILL; rounds repeat until none is
// left, so a process forked meanwhile is caught by the next round. Zombies (already dead, only
// waiting to be reaped) do not count.
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const ROUNDS = 50;
const ROUND_PAUSE_MS = 20;

/** The live processes with `uid` among their uids. */
export async function processesOf(uid: number): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let status: string;
    try {
      status = await readFile(`/proc/${name}/status`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const uids = /^Uid:\s+(.*)$/m.exec(status)?.[1].trim().split(/\s+/).map(Number) ?? [];
    const zombie = /^State:\s+Z/m.test(status);
    if (!zombie && uids.includes(uid)) found.push(Number(name));
  }
  return found;
}

/** Kills every process of `uid`; true when none is left, false when some survived every round. */
export async function killProcessesOf(uid: number): Promise<boolean> {
  if (uid === 0 || uid === process.getuid?.()) throw new Error(`refusing to kill the processes of uid ${uid}`);
  for (let round = 0; round < ROUNDS; round += 1) {
    const pids = await processesOf(uid);
    if (pids.length === 0) return true;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // ESRCH: it ended meanwhile.
      }
    }
    await sleep(ROUND_PAUSE_MS);
  }
  return (await processesOf(uid)).length === 0;
}
