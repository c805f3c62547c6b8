// Whom one run's process runs as, for the run's lifetime (docs/runs.md, "What a run can reach").
// With RUN_UIDS (a root service, RUN_AS_USER unset) the run claims a uid of its own, used as its
// gid too: no other run shares it while it lives. Before the run starts, and again when it has
// ended, every process of that uid is killed, so nothing of an earlier holder (a process that
// escaped its group) meets it and nothing of it meets the next holder; what it left in /tmp,
// /var/tmp and /dev/shm is removed (uid-leftovers.ts); the claim is released only once no
// process is left. With RUN_AS_USER every run is that one user (nothing is killed: other
// runs share it), and a service that is not root keeps its own user.
import type { RunAs, RunUser } from '../../../lib/run-user.js';
import { claimUid, staleClaims } from './uid-claims.js';
import { removeLeftoversOf } from './uid-leftovers.js';
import { killProcessesOf } from './uid-processes.js';

export interface RunUserLease {
  /** Who the run's processes run as; null: the service's own user. */
  user: RunUser | null;
  /** Kills whatever still runs as the run's own uid (nothing for a shared user); true when nothing is left. */
  endProcesses(): Promise<boolean>;
  /** Ends the processes again and gives the uid back; a uid whose processes would not die stays claimed. */
  release(): Promise<void>;
}

const nothingToEnd = async () => true;

export async function leaseRunUser(runsDir: string, runAs: RunAs | null | undefined): Promise<RunUserLease> {
  if (!runAs) return { user: null, endProcesses: nothingToEnd, release: async () => undefined };
  if (runAs.kind === 'shared') return { user: runAs.user, endProcesses: nothingToEnd, release: async () => undefined };
  await sweepOnce(runsDir);
  const claim = await claimUid(runsDir, runAs.range);
  // A claim taken over from a dead service may have left processes of the uid behind.
  if (!(await killProcessesOf(claim.uid))) throw new Error(`processes of uid ${claim.uid} could not be ended`);
  const endProcesses = () => killProcessesOf(claim.uid);
  const user = { uid: claim.uid, gid: claim.uid, name: `uid ${claim.uid} of RUN_UIDS` };
  return {
    user,
    endProcesses,
    async release() {
      if (!(await endProcesses())) return;
      await removeLeftoversOf(user);
      // The removal ran as the uid: nothing of it may outlive it either.
      if (await endProcesses()) await claim.release();
    },
  };
}

const swept = new Map<string, Promise<void>>();

/**
 * Once per process and RUNS_DIR, before its first run: the claims a dead service left (it was
 * killed mid-run) are taken over and what still runs as their uids is ended, its leftovers
 * removed, the claims released. Without this, such a macro would run on (past its time limit,
 * nobody watching it) until its uid came round again. A failure is retried at the next run.
 */
function sweepOnce(runsDir: string): Promise<void> {
  let sweep = swept.get(runsDir);
  if (!sweep) {
    sweep = (async () => {
      for await (const claim of staleClaims(runsDir)) {
        if (!(await killProcessesOf(claim.uid))) continue;
        await removeLeftoversOf({ uid: claim.uid, gid: claim.uid, name: `uid ${claim.uid} of RUN_UIDS` });
        await claim.release();
      }
    })();
    sweep.catch(() => swept.delete(runsDir));
    swept.set(runsDir, sweep);
  }
  return sweep.catch(() => undefined);
}
