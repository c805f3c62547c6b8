// RUN_UIDS: the range a root service hands each run a uid of its own from (RUN_AS_USER unset).
// It is checked at start-up whoever the service runs as, so a bad value never waits for the
// day the service first starts as root.
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { ServiceIdentity } from '../../../src/lib/run-user.js';

const noPasswd = () => {
  throw new Error('read /etc/passwd');
};
const root: ServiceIdentity = { uid: 0, gid: 0, passwd: noPasswd };
const ada: ServiceIdentity = { uid: 1000, gid: 1000, passwd: noPasswd };

const runAs = (env: Record<string, string>, identity = root) => loadConfig(env, identity).runAs;

describe('RUN_UIDS', () => {
  test('unset or empty: 200000-299999', () => {
    expect(runAs({})).toEqual({ kind: 'own-uid', range: { first: 200000, last: 299999 } });
    expect(runAs({ RUN_UIDS: '' })).toEqual({ kind: 'own-uid', range: { first: 200000, last: 299999 } });
  });

  test('a range is taken as written, one uid included', () => {
    expect(runAs({ RUN_UIDS: ' 1000-1009 ' })).toEqual({ kind: 'own-uid', range: { first: 1000, last: 1009 } });
    expect(runAs({ RUN_UIDS: '70000-70000' })).toEqual({ kind: 'own-uid', range: { first: 70000, last: 70000 } });
    expect(runAs({ RUN_UIDS: '1000-2147483646' })).toEqual({ kind: 'own-uid', range: { first: 1000, last: 2147483646 } });
  });

  test.each([
    ['200000', /Invalid setting RUN_UIDS: must be a range of uids first-last \(for example 200000-299999\), got "200000"/],
    ['a-b', /must be a range of uids first-last/],
    ['-5-10', /must be a range of uids first-last/],
    ['1000-2000,3000-4000', /must be a range of uids first-last/],
    ['999-2000', /Invalid setting RUN_UIDS: must lie between 1000 and 2147483646, got "999-2000"/],
    ['0-100', /must lie between 1000 and 2147483646/],
    ['1000-2147483647', /must lie between 1000 and 2147483646/],
    ['5000-4000', /Invalid setting RUN_UIDS: starts above where it ends \("5000-4000"\); write the lower uid first/],
  ])('%s is refused', (value, message) => {
    expect(() => runAs({ RUN_UIDS: value })).toThrow(message);
  });

  test('is checked also when the service is not root, or RUN_AS_USER is set', () => {
    expect(() => runAs({ RUN_UIDS: 'x' }, ada)).toThrow(/RUN_UIDS/);
    expect(() => runAs({ RUN_UIDS: 'x', RUN_AS_USER: '3000:3000' })).toThrow(/RUN_UIDS/);
  });

  test('RUN_AS_USER set wins: every run that one user; not root: runs keep the service user', () => {
    expect(runAs({ RUN_UIDS: '1000-1009', RUN_AS_USER: '3000:3001' })).toEqual({ kind: 'shared', user: { uid: 3000, gid: 3001, name: '3000:3001' } });
    expect(runAs({ RUN_UIDS: '1000-1009' }, ada)).toBeNull();
  });
});
