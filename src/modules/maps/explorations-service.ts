// Starting, reading and stopping explorations (app-api.md "Menu maps"). Starting holds the
// device for the exploration in the same transaction that queues it (409 `device_busy` when a
// run, a lease or another exploration has it); the exploration job takes it from there.
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { holdDeviceForJob, releaseJobHold } from '../devices/index.js';
import { deviceHasActiveRun } from '../runs/index.js';
import { DEFAULT_DO_NOT_TOUCH } from './explorer/do-not-touch.js';
import { EXPLORATION_JOB } from './exploration-job.js';
import { type ExplorationRow, presentExploration } from './present.js';
import { EXPLORATION_LIMITS, type ExplorationRecord, type StartExplorationInput } from './schemas.js';

/** How long a queued exploration holds its device before a worker takes it (renewed from then on). */
export const QUEUED_HOLD_MS = 10 * 60_000;
export const STOPPED_ON_REQUEST = 'stopped on request';

type Caller = Pick<ServiceContext, 'userId'>;

export class ExplorationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async start(ctx: Caller, input: StartExplorationInput): Promise<ExplorationRecord> {
    const doNotTouch = [...new Set((input.do_not_touch ?? DEFAULT_DO_NOT_TOUCH).map((p) => p.trim().replace(/\s+/g, ' ')))];
    const row = await this.db.kysely.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const { leaseId } = await holdDeviceForJob(
        trx,
        this.db.dialect,
        { userId: ctx.userId, deviceId: input.device_id, job: `a map exploration of ${input.package}`, now, expiresAt: now + QUEUED_HOLD_MS },
        deviceHasActiveRun,
      );
      const created = await trx
        .insertInto('map_explorations')
        .values({
          user_id: ctx.userId,
          device_id: input.device_id,
          package: input.package,
          state: 'queued',
          state_message: null,
          max_screens: input.max_screens ?? EXPLORATION_LIMITS.maxScreens.default,
          max_minutes: input.max_minutes ?? EXPLORATION_LIMITS.maxMinutes.default,
          do_not_touch: JSON.stringify(doNotTouch),
          lease_id: leaseId,
          locked_until: null,
          locked_by: null,
          created_at: now,
          started_at: null,
          finished_at: null,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.db.wakeup.notify(trx, EXPLORATION_JOB);
      return created;
    });
    return presentExploration(row);
  }

  async get(ctx: Caller, id: number): Promise<ExplorationRecord> {
    return presentExploration(await this.find(ctx, id));
  }

  /**
   * Ends the exploration `stopped` at once. A queued one gives its device back here; a running
   * one's worker sees the stop at its next action, saves what it learned so far as the map and
   * then gives the device back. An exploration that has already ended is answered as it is.
   */
  async stop(ctx: Caller, id: number): Promise<ExplorationRecord> {
    const row = await this.db.kysely.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const found = await trx.selectFrom('map_explorations').selectAll().where('id', '=', id).where('user_id', '=', ctx.userId).executeTakeFirst();
      if (!found) throw notFound();
      if (found.state !== 'queued' && found.state !== 'running') return found;
      const stopped = await trx
        .updateTable('map_explorations')
        .set({ state: 'stopped', state_message: STOPPED_ON_REQUEST, finished_at: now, updated_at: now })
        .where('id', '=', id)
        .where('state', 'in', ['queued', 'running'])
        .returningAll()
        .executeTakeFirstOrThrow();
      // Nobody works on a queued exploration that no worker has claimed: its device is free now.
      if (found.state === 'queued' && found.locked_by === null && found.lease_id) await releaseJobHold(trx, found.lease_id);
      return stopped;
    });
    return presentExploration(row);
  }

  private async find(ctx: Caller, id: number): Promise<ExplorationRow> {
    const row = await this.db.kysely.selectFrom('map_explorations').selectAll().where('id', '=', id).where('user_id', '=', ctx.userId).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }
}

const notFound = () => new NotFoundError('No exploration with this id.');
