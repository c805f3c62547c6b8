// RUN_UIDS: the range of uids a root service hands out, one to each cloud run for its lifetime
// (when RUN_AS_USER is not set), so that two runs are different users to the kernel. Each run's
// gid is its uid. The range must hold no account of the machine: a run could otherwise act as
// that account's processes and files. The uids need no /etc/passwd entry.
import { ConfigError } from './config-error.js';

export interface UidRange {
  first: number;
  last: number;
}

export const DEFAULT_RUN_UIDS = '200000-299999';
/** Below this sit the system's and the usual login accounts. */
export const LOWEST_RUN_UID = 1000;
/** Node takes uids as signed 32-bit numbers. */
export const HIGHEST_RUN_UID = 2_147_483_646;

export function parseUidRange(raw: string | undefined): UidRange {
  const text = raw?.trim() || DEFAULT_RUN_UIDS;
  const match = /^(\d{1,10})-(\d{1,10})$/.exec(text);
  if (!match) throw new ConfigError('RUN_UIDS', `must be a range of uids first-last (for example ${DEFAULT_RUN_UIDS}), got "${text}"`);
  const first = Number(match[1]);
  const last = Number(match[2]);
  if (first < LOWEST_RUN_UID || last > HIGHEST_RUN_UID) {
    throw new ConfigError('RUN_UIDS', `must lie between ${LOWEST_RUN_UID} and ${HIGHEST_RUN_UID}, got "${text}"`);
  }
  if (first > last) throw new ConfigError('RUN_UIDS', `starts above where it ends ("${text}"); write the lower uid first`);
  return { first, last };
}
