// RUN_AS_USER: resolved at start-up against who the service runs as. As root, set, every run
// switches to it, never to root (unset, each run gets a uid of its own: run-uids-config.test.ts); a service that is not root cannot switch, so the setting
// may only name its own user, and start-up warns that runs read what the service can.
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { sameUserWarning, type ServiceIdentity } from '../../../src/lib/run-user.js';

const PASSWD = [
  'root:x:0:0:root:/root:/bin/bash',
  'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
  'svc-run:x:2001:2002::/home/svc-run:/usr/sbin/nologin',
  'ada:x:1000:1000:Ada:/home/ada:/bin/bash',
  '',
].join('\n');

const root: ServiceIdentity = { uid: 0, gid: 0, passwd: () => PASSWD };
const ada: ServiceIdentity = { uid: 1000, gid: 1000, passwd: () => PASSWD };
/** For uid:gid, which needs no look-up. */
const noPasswd = (identity: ServiceIdentity): ServiceIdentity => ({ ...identity, passwd: () => { throw new Error('read /etc/passwd'); } });

/** The one user every run switches to (RUN_AS_USER set), or how runs run otherwise. */
const runUser = (env: Record<string, string>, identity: ServiceIdentity) => {
  const runAs = loadConfig(env, identity).runAs;
  return runAs?.kind === 'shared' ? runAs.user : runAs;
};

describe('RUN_AS_USER when the service is root', () => {
  test('unset: no shared user, each run a uid of its own from RUN_UIDS, without reading /etc/passwd', () => {
    expect(runUser({}, noPasswd(root))).toEqual({ kind: 'own-uid', range: { first: 200000, last: 299999 } });
    expect(runUser({ RUN_AS_USER: '' }, noPasswd(root))).toEqual({ kind: 'own-uid', range: { first: 200000, last: 299999 } });
  });

  test('nobody, named, is looked up in /etc/passwd', () => {
    expect(runUser({ RUN_AS_USER: 'nobody' }, root)).toEqual({ uid: 65534, gid: 65534, name: 'nobody' });
  });

  test('a name takes its uid and primary group; uid:gid is taken as written', () => {
    expect(runUser({ RUN_AS_USER: 'svc-run' }, root)).toEqual({ uid: 2001, gid: 2002, name: 'svc-run' });
    expect(runUser({ RUN_AS_USER: ' 3000:3001 ' }, noPasswd(root))).toEqual({ uid: 3000, gid: 3001, name: '3000:3001' });
  });

  test.each([
    ['root', /RUN_AS_USER: is root \(uid 0, gid 0\): runs must not run as root or in the root group/],
    ['0:0', /RUN_AS_USER: is 0:0 \(uid 0, gid 0\)/],
    ['1000:0', /RUN_AS_USER: is 1000:0 \(uid 1000, gid 0\): runs must not run as root or in the root group/],
    ['ghost', /RUN_AS_USER: the user "ghost" is not in \/etc\/passwd; create it or give its ids as uid:gid/],
    ['65534', /RUN_AS_USER: must be a user name or uid:gid \(for example nobody or 65534:65534\), got "65534"/],
    ['a b', /must be a user name or uid:gid/],
    ['1:2:3', /must be a user name or uid:gid/],
    ['-rf', /must be a user name or uid:gid/],
  ])('%s is refused', (value, message) => {
    expect(() => runUser({ RUN_AS_USER: value }, root)).toThrow(message);
  });

  test('nobody named but not in /etc/passwd is refused, saying what to set', () => {
    expect(() => runUser({ RUN_AS_USER: 'nobody' }, { ...root, passwd: () => 'root:x:0:0::/root:/bin/sh\n' })).toThrow('Invalid setting RUN_AS_USER: the user "nobody" is not in /etc/passwd');
  });
});

describe('RUN_AS_USER when the service is not root', () => {
  test("unset, or naming the service's own user: runs keep the service's user (null), without reading /etc/passwd when unset", () => {
    expect(runUser({}, noPasswd(ada))).toBeNull();
    expect(runUser({ RUN_AS_USER: 'ada' }, ada)).toBeNull();
    expect(runUser({ RUN_AS_USER: '1000:1000' }, noPasswd(ada))).toBeNull();
  });

  test('another user is a configuration error that says why and what to do', () => {
    expect(() => runUser({ RUN_AS_USER: 'nobody' }, ada)).toThrow(
      'Invalid setting RUN_AS_USER: is nobody (uid 65534, gid 65534), but the service runs as uid 1000 (gid 1000) and is not root, so it cannot switch runs to another user. ' +
        'Start the service as root (runs then switch to RUN_AS_USER), or leave RUN_AS_USER unset and run the service under a dedicated account (runs then run as that account)',
    );
    expect(() => runUser({ RUN_AS_USER: '1000:1001' }, ada)).toThrow(/is 1000:1001 \(uid 1000, gid 1001\), but the service runs as uid 1000 \(gid 1000\)/);
  });

  test('start-up warns when runs keep the service user, and not when they switch', () => {
    expect(sameUserWarning(null, 1000)).toBe(
      "cloud runs execute as this service's own user (uid 1000) because the service is not root: a macro can read the service's files " +
        "(DATA_DIR with secret.key and the SQLite database, other runs' folders). Start the service as root, so each run switches to a uid of its own (RUN_UIDS), " +
        'or run the workers under a dedicated account that holds nothing else',
    );
    expect(sameUserWarning({ kind: 'shared', user: { uid: 65534, gid: 65534, name: 'nobody' } }, 0)).toBeUndefined();
    expect(sameUserWarning({ kind: 'own-uid', range: { first: 200000, last: 299999 } }, 0)).toBeUndefined();
  });
});
