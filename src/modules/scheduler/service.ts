// Schedules, fn(ctx, input) for the application routes and the schedule tools alike. Every
// query filters by the owner, so someone else's schedule is simply not found. A change of
// rule (cron, zone) or a return to work (enabled again, a deleted macro or target replaced)
// recomputes the next fire time from now: fire times that passed while it was off are not
// owed. Other edits leave it, so renaming a schedule never costs it a fire.
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../core/context.js';
import { LimitReachedError, NotFoundError, ValidationError } from '../../core/errors.js';
import { offsetOf, pageOf, pageRequest } from '../../core/paging.js';
import type { IdInput } from '../../core/schema.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { FireTimes } from './fire-times.js';
import type { ScheduleTargets } from './ports.js';
import { isActive, presentOccurrence, presentSchedule, type ScheduleRow } from './present.js';
import type { CreateScheduleInput, OccurrenceListInput, ScheduleListInput, UpdateScheduleInput } from './schemas.js';

/** decisions.md §14. */
export const SCHEDULES_PER_ACCOUNT = 100;

type Target = { target: 'device'; device_id: number; group_id: null } | { target: 'group'; device_id: null; group_id: number };

export class ScheduleService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly targets: ScheduleTargets,
  ) {}

  private async find(userId: number, id: number): Promise<ScheduleRow> {
    const row = await this.db.selectFrom('schedules').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw new NotFoundError('No schedule with this id.');
    return row;
  }

  /** Exactly one of device_id and group_id, each checked as the caller's cloud device or cloud group. */
  private async target(ctx: ServiceContext, input: { device_id?: number; group_id?: number }): Promise<Target> {
    if ((input.device_id === undefined) === (input.group_id === undefined)) {
      throw new ValidationError([{ path: 'body', message: 'must name exactly one of device_id (a cloud device) and group_id (a cloud group)' }]);
    }
    if (input.device_id !== undefined) {
      await this.targets.cloudDevices.get(ctx, { id: input.device_id });
      return { target: 'device', device_id: input.device_id, group_id: null };
    }
    const groupId = input.group_id as number;
    if ((await this.targets.groups.get(ctx, { id: groupId })).kind !== 'cloud') {
      throw new ValidationError([{ path: 'body.group_id', message: 'must be a cloud group (this one holds devices on your own machines)' }]);
    }
    return { target: 'group', device_id: null, group_id: groupId };
  }

  private nextFire(rule: { cron: string; timezone: string }): number | null {
    return new FireTimes(rule).next(this.clock.now());
  }

  async create(ctx: ServiceContext, input: CreateScheduleInput) {
    const rule = { cron: input.cron.trim(), timezone: input.timezone ?? 'UTC' };
    const next = this.nextFire(rule); // 422 naming body.cron or body.timezone
    const macro = await this.targets.macros.get(ctx, { id: input.macro_id });
    const target = await this.target(ctx, input);
    const now = this.clock.now();
    const enabled = input.enabled ?? true;
    const row = await this.db.transaction().execute(async (trx) => {
      const { count } = await trx.selectFrom('schedules').select((eb) => eb.fn.countAll<number>().as('count')).where('user_id', '=', ctx.userId).executeTakeFirstOrThrow();
      if (Number(count) >= SCHEDULES_PER_ACCOUNT) {
        throw new LimitReachedError('schedule_limit_reached', `An account can have at most ${SCHEDULES_PER_ACCOUNT} schedules. Delete one you no longer need, then create this one.`, SCHEDULES_PER_ACCOUNT);
      }
      const inserted = await trx
        .insertInto('schedules')
        .values({
          user_id: ctx.userId,
          name: input.name?.trim() ?? macro.name,
          macro_id: input.macro_id,
          ...target,
          ...rule,
          args: input.args === undefined ? null : JSON.stringify(input.args),
          enabled: enabled ? 1 : 0,
          disabled_reason: null,
          next_fire_at: next,
          last_fire_at: null,
          streak_from: now,
          locked_until: null,
          locked_by: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return inserted;
    });
    return presentSchedule(row);
  }

  async list(ctx: ServiceContext, input: ScheduleListInput) {
    const page = pageRequest(input);
    let query = this.db.selectFrom('schedules').where('user_id', '=', ctx.userId);
    if (input.macro_id !== undefined) query = query.where('macro_id', '=', input.macro_id);
    // "Enabled" as a reader sees it: a schedule whose macro or target was deleted is disabled.
    if (input.enabled !== undefined) {
      query = query.where((eb) => {
        const active = eb.and([
          eb('enabled', '=', 1),
          eb('macro_id', 'is not', null),
          eb.or([eb('device_id', 'is not', null), eb('group_id', 'is not', null)]),
        ]);
        return input.enabled ? active : eb.not(active);
      });
    }
    const [{ total }, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      query.selectAll().orderBy('id', 'desc').limit(page.pageSize).offset(offsetOf(page)).execute(),
    ]);
    return pageOf(page, Number(total), rows.map(presentSchedule));
  }

  async get(ctx: ServiceContext, { id }: IdInput) {
    return presentSchedule(await this.find(ctx.userId, id));
  }

  async update(ctx: ServiceContext, { id, ...input }: IdInput & UpdateScheduleInput) {
    const row = await this.find(ctx.userId, id);
    const rule = { cron: input.cron?.trim() ?? row.cron, timezone: input.timezone ?? row.timezone };
    // 422 naming the field before anything else is looked up. A rule stored before a check
    // existed (one that never fires) is judged only when it is edited or the schedule enabled.
    if (input.cron !== undefined || input.timezone !== undefined || input.enabled === true) new FireTimes(rule);
    if (input.macro_id !== undefined) await this.targets.macros.get(ctx, { id: input.macro_id });
    const target = input.device_id !== undefined || input.group_id !== undefined ? await this.target(ctx, input) : undefined;
    const macroId = input.macro_id ?? row.macro_id;
    const enabled = input.enabled ?? row.enabled === 1;
    const merged = { ...row, ...(target ?? {}), macro_id: macroId, enabled: enabled ? 1 : 0 };
    if (input.enabled === true && !isActive({ ...merged, enabled: 1 })) {
      const missing = merged.macro_id === null ? 'body.macro_id' : merged.target === 'device' ? 'body.device_id' : 'body.group_id';
      throw new ValidationError([{ path: missing, message: 'is required to enable this schedule: the one it had was deleted' }]);
    }
    const ruleChanged = rule.cron !== row.cron || rule.timezone !== row.timezone;
    const backToWork = isActive(merged) && !isActive(row);
    const now = this.clock.now();
    const updated = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('schedules')
        .set({
          ...(input.name !== undefined ? { name: input.name.trim() } : {}),
          ...(target ?? {}),
          macro_id: macroId,
          ...rule,
          ...(input.args !== undefined ? { args: JSON.stringify(input.args) } : {}),
          enabled: enabled ? 1 : 0,
          // A person's choice either way clears what the service set.
          ...(input.enabled !== undefined ? { disabled_reason: null } : {}),
          // Enabling starts a new failure streak: the failures that disabled it are not counted again.
          ...(input.enabled === true ? { streak_from: now } : {}),
          ...(ruleChanged || backToWork ? { next_fire_at: this.nextFire(rule) } : {}),
          updated_at: now,
        })
        .where('id', '=', id)
        .where('user_id', '=', ctx.userId)
        .returningAll()
        .executeTakeFirst();
      if (!result) throw new NotFoundError('No schedule with this id.');
      return result;
    });
    return presentSchedule(updated);
  }

  /** The schedule tools' cancel: disables it (a person's choice, no reason) and answers it. */
  async disable(ctx: ServiceContext, { id }: IdInput) {
    await this.find(ctx.userId, id);
    const row = await this.db
      .updateTable('schedules')
      .set({ enabled: 0, disabled_reason: null, updated_at: this.clock.now() })
      .where('id', '=', id)
      .where('user_id', '=', ctx.userId)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError('No schedule with this id.');
    return presentSchedule(row);
  }

  /** Its occurrences go with it; the runs it started keep their history. */
  async remove(ctx: ServiceContext, { id }: IdInput): Promise<void> {
    const result = await this.db.deleteFrom('schedules').where('id', '=', id).where('user_id', '=', ctx.userId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new NotFoundError('No schedule with this id.');
  }

  /** Newest fire time first; an occurrence whose run is being started this instant is not shown yet. */
  async occurrences(ctx: ServiceContext, { id, ...input }: IdInput & OccurrenceListInput) {
    await this.find(ctx.userId, id);
    const page = pageRequest(input);
    const query = this.db.selectFrom('schedule_occurrences').where('schedule_id', '=', id).where('outcome', '!=', 'pending');
    const [{ total }, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      query.selectAll().orderBy('fire_at', 'desc').orderBy('device_id').orderBy('id', 'desc').limit(page.pageSize).offset(offsetOf(page)).execute(),
    ]);
    return pageOf(page, Number(total), rows.map(presentOccurrence));
  }
}
