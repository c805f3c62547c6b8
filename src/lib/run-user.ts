// Whom a cloud run's process switches to, so that a macro cannot read the service's own files
// (DATA_DIR with secret.key and the SQLite database) or list other runs' folders: by default a
// uid of the run's own (RUN_UIDS, run-uids.ts), or the one user RUN_AS_USER names, which all
// runs then share. Only a service running as root can switch; otherwise runs keep its user,
// which start-up warns about. Names are looked up in /etc/passwd (no NSS): give `uid:gid` for others.
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.js';
import { parseUidRange, type UidRange } from './run-uids.js';

export interface RunUser {
  uid: number;
  gid: number;
  /** How RUN_AS_USER names it (or the default `nobody`), for messages. */
  name: string;
}

/**
 * Who runs switch to, when the service is root: each run a uid of its own from RUN_UIDS (RUN_AS_USER
 * unset, the default), or every run the one RUN_AS_USER (set explicitly; runs then share a user).
 */
export type RunAs = { kind: 'own-uid'; range: UidRange } | { kind: 'shared'; user: RunUser };

/** Who the service runs as, and where names are looked up; tests pass their own. */
export interface ServiceIdentity {
  uid: number;
  gid: number;
  /** The text of /etc/passwd, read only when a name must be looked up. */
  passwd: () => string;
}

export const DEFAULT_RUN_USER = 'nobody';

const NAME = /^[A-Za-z_][A-Za-z0-9._-]{0,31}\$?$/;
const IDS = /^(\d{1,10}):(\d{1,10})$/;

export function lookUpUser(name: string, passwd: string): { uid: number; gid: number } | undefined {
  for (const line of passwd.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && /^\d+$/.test(uid ?? '') && /^\d+$/.test(gid ?? '')) return { uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

function resolve(raw: string, identity: ServiceIdentity): RunUser {
  const ids = IDS.exec(raw);
  if (ids) return { uid: Number(ids[1]), gid: Number(ids[2]), name: raw };
  if (!NAME.test(raw)) throw new ConfigError('RUN_AS_USER', `must be a user name or uid:gid (for example nobody or 65534:65534), got "${raw}"`);
  const found = lookUpUser(raw, identity.passwd());
  if (!found) throw new ConfigError('RUN_AS_USER', `the user "${raw}" is not in /etc/passwd; create it or give its ids as uid:gid`);
  return { ...found, name: raw };
}

/**
 * How runs switch users (see RunAs), or null when they keep the service's own user (it is not
 * root). `rawUser` is RUN_AS_USER and `rawUids` RUN_UIDS as set, undefined or '' when unset.
 */
export function runAsFor(rawUser: string | undefined, rawUids: string | undefined, identity: ServiceIdentity): RunAs | null {
  const range = parseUidRange(rawUids);
  if (identity.uid === 0 && !rawUser?.trim()) return { kind: 'own-uid', range };
  const user = runUserFor(rawUser, identity);
  return user ? { kind: 'shared', user } : null;
}

/**
 * The user runs switch to, or null when they keep the service's own user (a service that is
 * not root cannot switch). `raw` is RUN_AS_USER as set, undefined or '' when unset.
 */
export function runUserFor(raw: string | undefined, identity: ServiceIdentity): RunUser | null {
  const setting = raw?.trim() || undefined;
  if (identity.uid === 0) {
    const user = resolve(setting ?? DEFAULT_RUN_USER, identity);
    if (user.uid === 0 || user.gid === 0) {
      throw new ConfigError('RUN_AS_USER', `is ${user.name} (uid ${user.uid}, gid ${user.gid}): runs must not run as root or in the root group, or they could read the service's files; name an unprivileged user such as nobody`);
    }
    return user;
  }
  if (setting === undefined) return null;
  const user = resolve(setting, identity);
  if (user.uid === identity.uid && user.gid === identity.gid) return null;
  throw new ConfigError('RUN_AS_USER', 
    `is ${setting} (uid ${user.uid}, gid ${user.gid}), but the service runs as uid ${identity.uid} (gid ${identity.gid}) and is not root, so it cannot switch runs to another user. ` +
      'Start the service as root (runs then switch to RUN_AS_USER), or leave RUN_AS_USER unset and run the service under a dedicated account (runs then run as that account)',
  );
}

/** The warning `serve` and `worker` log at start-up when runs execute as the service's own user; undefined when they switch. */
export function sameUserWarning(runAs: RunAs | RunUser | null, serviceUid: number): string | undefined {
  if (runAs) return undefined;
  return (
    `cloud runs execute as this service's own user (uid ${serviceUid}) because the service is not root: ` +
    "a macro can read the service's files (DATA_DIR with secret.key and the SQLite database, other runs' folders). " +
    'Start the service as root, so each run switches to a uid of its own (RUN_UIDS), or run the workers under a dedicated account that holds nothing else'
  );
}

/** The identity of this process; on a system without uids (Windows) it never counts as root. */
export function currentIdentity(): ServiceIdentity {
  return {
    uid: process.getuid?.() ?? -1,
    gid: process.getgid?.() ?? -1,
    passwd: () => readFileSync('/etc/passwd', 'utf8'),
  };
}
