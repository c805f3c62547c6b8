// The run sandbox's bubblewrap command, stated in one place (decisions.md §10, "The sandbox";
// docs/runs.md, "What a run can reach"). Everything a run may see is listed here:
//
// - new user, mount, PID, IPC, UTS, network and cgroup namespaces; the uid inside is the
//   run's own uid outside (bwrap runs as that uid, unprivileged), so the per-run uid stays a
//   second wall, and no capability is kept;
// - a root of its own, read-only: an empty tmpfs with the system folders bound read-only
//   (/usr, /etc and the /bin, /lib… links or folders as the host has them). Nothing else of
//   the host is there: no DATA_DIR, no RUNS_DIR, no other run, no /home, /root, /var or /run
//   with the host's Unix sockets (PostgreSQL's among them);
// - its own /proc (only its processes) and a minimal /dev, read-only but for /dev/shm;
// - one size-limited tmpfs (RUN_MAX_DISK_MB) at /run/svc holding the working directory, HOME
//   and /tmp (a link to /run/svc/tmp), so writes in all three count against one limit and
//   everything written is gone when the run ends;
// - read-only binds of the run's code, its SDK copy and the folder holding the bridges' Unix
//   sockets (the RPC, the egress proxy, on `adb` hosts the ADB server);
// - the network namespace holds only a loopback: the run's ways out are those sockets.
//
// The launcher (`sh`, then bwrap) ignores SIGTERM, so a stop's SIGTERM to the process group
// reaches the macro (which the wrapper gives the default action back) without ending the
// sandbox under it; SIGKILL after the grace period ends everything. --die-with-parent ends
// the sandbox if the service dies.
import { lstatSync, readlinkSync } from 'node:fs';

/** Where things are inside the sandbox. */
export const INSIDE = {
  /** The size-limited tmpfs. */
  root: '/run/svc',
  work: '/run/svc/work',
  home: '/run/svc/home',
  tmp: '/run/svc/tmp',
  code: '/run/svc-in/code',
  sdk: '/run/svc-in/sdk',
  io: '/run/svc-in/io',
} as const;

/** The ports the bridges listen on, on the sandbox's own loopback. */
export const BRIDGE_PORTS = { rpc: 8080, egress: 3128, adb: 5037 } as const;

/** POSIX shared memory (multiprocessing's locks); separate from the disk limit, since /dev cannot hold a link to it. */
export const SHM_MB = 64;

export interface SandboxLayout {
  /** The run's uid and gid (bwrap runs as them; the same numbers inside). */
  uid: number;
  gid: number;
  /** Host folders bound read-only: the unpacked code, the SDK copy, the bridges' sockets. */
  codeDir: string;
  sdkDir: string;
  ioDir: string;
  /** RUN_MAX_DISK_MB */
  diskMb: number;
}

const MiB = 1024 * 1024;

/** /bin, /lib, … as the host has them: a link into /usr (merged /usr), a folder, or nothing. */
function systemFolders(): string[] {
  const args: string[] = ['--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc'];
  for (const name of ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32']) {
    const path = `/${name}`;
    let info;
    try {
      info = lstatSync(path);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (info.isDirectory()) args.push('--ro-bind', path, path);
  }
  return args;
}

/** The whole argv: `sh` ignoring SIGTERM, then bwrap with the sandbox, then `command` inside. */
export function sandboxedCommand(layout: SandboxLayout, command: string[]): string[] {
  const bwrap = [
    'bwrap',
    ...['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--unshare-cgroup-try'],
    ...['--uid', String(layout.uid), '--gid', String(layout.gid), '--hostname', 'run'],
    ...['--die-with-parent', '--cap-drop', 'ALL'],
    ...['--tmpfs', '/', ...systemFolders()],
    ...['--proc', '/proc', '--dev', '/dev', '--size', String(SHM_MB * MiB), '--tmpfs', '/dev/shm'],
    ...['--size', String(layout.diskMb * MiB), '--tmpfs', INSIDE.root, '--dir', INSIDE.work, '--dir', INSIDE.home, '--dir', INSIDE.tmp],
    ...['--symlink', INSIDE.tmp.slice(1), '/tmp'],
    ...['--ro-bind', layout.codeDir, INSIDE.code, '--ro-bind', layout.sdkDir, INSIDE.sdk, '--ro-bind', layout.ioDir, INSIDE.io],
    ...['--remount-ro', '/dev', '--remount-ro', '/', '--chdir', INSIDE.work],
    '--',
    ...command,
  ];
  return ['/bin/sh', '-c', `trap '' TERM; exec "$@"`, 'sh', ...bwrap];
}
