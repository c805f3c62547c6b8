// The scheduler's two steps on an injected clock: a fire time is recorded at once and started
// by the start job; a start whose worker died is made by the next worker once its lease
// lapses (once: a slow worker's start under the lapsed lease is undone with its refused
// write), and an occurrence that waited past the grace is missed.
import { beforeAll, describe, expect, test } from 'vitest';
import { claimDueJobs } from '../../../src/db/jobs/leases.js';
import { scheduleStartJob } from '../../../src/modules/scheduler/index.js';
import { startOccurrences } from '../../../src/modules/scheduler/start-occurrence.js';
import type { SignedUpUser } from '../../helpers/users.js';
import { type App, schedulerWorld } from './helpers/scheduler-world.js';

const w = schedulerWorld();
const { worker, device, schedule, occurrences, endRuns } = w;
let t: App;
let user: SignedUpUser;
let macroId: number;
beforeAll(() => {
  ({ t, user, macroId } = w);
});

describe('recording and starting are two steps', () => {
  test('a fire time is recorded at once; a start whose worker died is started by the next worker, once', async () => {
    const deviceId = await device();
    const s = await schedule({ device_id: deviceId, cron: '* * * * *' });
    const fireAt = Date.parse(s.next_fire_at);
    t.clock.set(fireAt + 300);
    // The fire pass alone (no start worker): the occurrence is recorded, waiting for its run.
    const startKind = scheduleStartJob(t.config);
    const pending = async () => t.db.kysely.selectFrom('schedule_occurrences').selectAll().where('schedule_id', '=', s.id).execute();
    expect(await worker(t, 'fire-only').fireOnce()).toBe(1);
    const [recorded] = await pending();
    expect(recorded).toMatchObject({ outcome: 'pending', fire_at: fireAt, device_id: deviceId, run_id: null });
    // Readers do not see an occurrence whose run is still being started.
    expect(await occurrences(s.id)).toEqual([]);
    // A worker claims it and dies before its start commits (the schedule is switched off first,
    // so the later fire times add nothing here).
    const [doomed] = await claimDueJobs(t.db, startKind, { now: t.clock.now(), token: 'doomed', limit: 10 });
    expect(doomed?.id).toBe(recorded!.id);
    await t.app.inject({ method: 'PUT', url: `/api/schedules/${s.id}`, headers: user.auth, payload: { enabled: false } });
    // Its lease runs out: the occurrence has no run (its outcome would have committed with it), so the next worker starts it.
    t.clock.set(t.clock.now() + startKind.leaseMs + 1000);
    await worker(t, 'survivor').runOnce();
    const [started] = await occurrences(s.id);
    expect(started).toMatchObject({ fire_at: s.next_fire_at, outcome: 'started', run_id: expect.any(Number) });
    // The "dead" worker was only slow: its start, under the lapsed lease, is refused and its run undone.
    const deps = { db: t.db, clock: t.clock, log: { error: () => undefined, warn: () => undefined, info: () => undefined }, runs: t.app.modules.runs.services.runs, config: t.config };
    await endRuns('finished');
    await startOccurrences(deps as never, [{ lease: doomed!, payload: { id: recorded!.id, schedule_id: s.id, fire_at: fireAt, device_id: deviceId, user_id: user.id, macro_id: macroId, args: null }, signal: new AbortController().signal }]);
    const runs = await t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', deviceId).execute();
    expect(runs.map((r) => r.id)).toEqual([started!.run_id]);
    expect(await occurrences(s.id)).toEqual([started]);
    await t.app.inject({ method: 'DELETE', url: `/api/schedules/${s.id}`, headers: user.auth });
  });

  test('an occurrence that waited past the grace (every worker down) is missed, past_grace, and starts nothing', async () => {
    const deviceId = await device();
    const s = await schedule({ device_id: deviceId, cron: '* * * * *' });
    const fireAt = Date.parse(s.next_fire_at);
    t.clock.set(fireAt + 300);
    expect(await worker(t, 'fire-only').fireOnce()).toBe(1);
    await t.app.inject({ method: 'PUT', url: `/api/schedules/${s.id}`, headers: user.auth, payload: { enabled: false } });
    t.clock.set(fireAt + 301_000);
    await worker(t, 'late').runOnce();
    const [late] = await occurrences(s.id);
    expect(late).toMatchObject({ fire_at: s.next_fire_at, outcome: 'missed', reason: 'past_grace' });
    expect(await t.db.kysely.selectFrom('cloud_runs').select('id').where('device_id', '=', deviceId).execute()).toEqual([]);
    await t.app.inject({ method: 'DELETE', url: `/api/schedules/${s.id}`, headers: user.auth });
  });
});
