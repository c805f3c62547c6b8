// Claims on RUN_UIDS (RUNS_DIR/.uids): a uid is handed to one holder at a time, a claim whose
// owner process is dead is taken over, a live one never is, and a released claim leaves
// nothing behind. Claims need no root (only switching to the uid does), so these run anywhere.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { claimUid, ownerName } from '../../../src/modules/runs/runner/uid-claims.js';
import { removeTempDirs, tempDir } from './helpers/runner.js';

afterAll(removeTempDirs);

/** The owner name of a process that has ended. */
function deadOwner(): string {
  const pid = spawnSync('/bin/sh', ['-c', 'echo $$']).stdout.toString().trim();
  return `${pid}-1`;
}

describe('uid claims', () => {
  test('concurrent claims get different uids until the range is used up; released, nothing is left', async () => {
    const runsDir = tempDir();
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => claimUid(runsDir, { first: 5000, last: 5007 })));
    const claims = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    expect(claims.map((c) => c.uid).sort()).toEqual([5000, 5001, 5002, 5003, 5004, 5005, 5006, 5007]);
    expect(refused).toEqual(Array(4).fill('Error: every uid of RUN_UIDS (5000-5007) is held by a run'));
    expect(statSync(join(runsDir, '.uids')).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(runsDir, '.uids', '5003'))).toEqual([await ownerName()]);
    await Promise.all(claims.map((c) => c.release()));
    expect(readdirSync(join(runsDir, '.uids'))).toEqual([]);
    // Released, the uid is free again.
    const again = await claimUid(runsDir, { first: 5003, last: 5003 });
    expect(again.uid).toBe(5003);
    await again.release();
  });

  test("a dead owner's claim is taken over; a live owner's is not", async () => {
    const runsDir = tempDir();
    const folder = join(runsDir, '.uids', '6000');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, deadOwner()), '');
    const claim = await claimUid(runsDir, { first: 6000, last: 6000 });
    expect(claim.uid).toBe(6000);
    expect(readdirSync(folder)).toEqual([await ownerName()]);
    await claim.release();
    expect(readdirSync(join(runsDir, '.uids'))).toEqual([]);

    // A live owner (this process, as another run of it would hold it) keeps its claim.
    mkdirSync(folder);
    writeFileSync(join(folder, await ownerName()), '');
    await expect(claimUid(runsDir, { first: 6000, last: 6000 })).rejects.toThrow('every uid of RUN_UIDS (6000-6000) is held by a run');
    // The same pid with another start time is a process that has ended (a restarted container).
    const [pid] = (await ownerName()).split('-');
    const reused = join(runsDir, '.uids', '6001');
    mkdirSync(reused);
    writeFileSync(join(reused, `${pid}-1`), '');
    const taken = await claimUid(runsDir, { first: 6001, last: 6001 });
    expect(taken.uid).toBe(6001);
    await taken.release();
    expect(readdirSync(join(runsDir, '.uids'))).toEqual(['6000']);
  });
});
