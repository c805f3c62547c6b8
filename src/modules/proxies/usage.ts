// Bandwidth usage. Samples are kept as sent and also added into a per-(UTC day, proxy,
// device) roll-up in the same transaction; every report period starts at a UTC midnight,
// so the report reads only the roll-up, however many samples there are.
import { type Kysely, sql } from 'kysely';
import type { ServiceContext } from '../../core/context.js';
import { ValidationError } from '../../core/errors.js';
import type { Database } from '../../db/schema.js';
import { type Clock, DAY_MS, toIso } from '../../lib/clock.js';
import { compact } from '../../lib/compact.js';
import { type DeviceLabel, deviceLabels, ownedDeviceIds } from '../devices/index.js';
import type { PERIODS, UsageInput, UsageSamplesInput } from './schemas.js';

export type Period = (typeof PERIODS)[number];

/** Start of the period in UTC: midnight today, Monday of this week, the 1st of this month; null for all. */
export function periodStart(period: Period, now: number): number | null {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  if (period === 'today') return today;
  if (period === 'week') return today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  if (period === 'month') {
    const d = new Date(today);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  return null;
}

const bytes = (up: number, down: number) => ({ bytes_up: up, bytes_down: down, bytes_total: up + down });

/** The per-device sums added up by each device's group now, in group id order. */
function perGroup(perDevice: readonly { device_id: number; up: number; down: number }[], labels: ReadonlyMap<number, DeviceLabel>) {
  const groups = new Map<number, { group_id: number; group_name: string; up: number; down: number }>();
  for (const row of perDevice) {
    const group = labels.get(row.device_id)?.group;
    if (!group) continue;
    const sum = groups.get(group.id) ?? { group_id: group.id, group_name: group.name, up: 0, down: 0 };
    sum.up += Number(row.up);
    sum.down += Number(row.down);
    groups.set(group.id, sum);
  }
  return [...groups.values()].sort((a, b) => a.group_id - b.group_id).map((g) => ({ group_id: g.group_id, group_name: g.group_name, ...bytes(g.up, g.down) }));
}

export class UsageService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async record(ctx: ServiceContext, { samples }: UsageSamplesInput): Promise<{ accepted: number }> {
    const { userId } = ctx;
    const now = this.clock.now();
    const proxyIds = [...new Set(samples.map((s) => s.proxy_id))];
    const deviceIds = [...new Set(samples.flatMap((s) => (s.device_id === undefined ? [] : [s.device_id])))];
    await this.db.transaction().execute(async (trx) => {
      const ownedProxies = new Set((await trx.selectFrom('proxies').select('id').where('user_id', '=', userId).where('id', 'in', proxyIds).execute()).map((r) => r.id));
      const ownedDevices = deviceIds.length ? await ownedDeviceIds(trx, userId, deviceIds) : new Set<number>();
      // The whole batch or nothing: one bad sample stores none.
      const problems = samples.flatMap((s, i) => [
        ...(ownedProxies.has(s.proxy_id) ? [] : [{ path: `body.samples.${i}.proxy_id`, message: 'is not one of your proxies' }]),
        ...(s.device_id === undefined || ownedDevices.has(s.device_id) ? [] : [{ path: `body.samples.${i}.device_id`, message: 'is not one of your devices' }]),
      ]);
      if (problems.length) throw new ValidationError(problems.slice(0, 20));
      const rows = samples.map((s) => ({
        user_id: userId,
        proxy_id: s.proxy_id,
        device_id: s.device_id ?? null,
        bytes_up: s.bytes_up,
        bytes_down: s.bytes_down,
        at: s.at ? Date.parse(s.at) : now,
      }));
      await trx.insertInto('proxy_usage_samples').values(rows).execute();
      const daily = new Map<string, { user_id: number; day: number; proxy_id: number; device_id: number; bytes_up: number; bytes_down: number }>();
      for (const r of rows) {
        const day = Math.floor(r.at / DAY_MS) * DAY_MS;
        const key = `${day}|${r.proxy_id}|${r.device_id ?? 0}`;
        const entry = daily.get(key) ?? { user_id: userId, day, proxy_id: r.proxy_id, device_id: r.device_id ?? 0, bytes_up: 0, bytes_down: 0 };
        entry.bytes_up += r.bytes_up;
        entry.bytes_down += r.bytes_down;
        daily.set(key, entry);
      }
      await trx
        .insertInto('proxy_usage_daily')
        .values([...daily.values()])
        .onConflict((oc) =>
          oc.columns(['user_id', 'day', 'proxy_id', 'device_id']).doUpdateSet({
            bytes_up: sql`proxy_usage_daily.bytes_up + excluded.bytes_up`,
            bytes_down: sql`proxy_usage_daily.bytes_down + excluded.bytes_down`,
          }),
        )
        .execute();
    });
    return { accepted: samples.length };
  }

  async report(ctx: ServiceContext, input: UsageInput) {
    const period = input.period ?? 'today';
    const since = periodStart(period, this.clock.now());
    let base = this.db.selectFrom('proxy_usage_daily as u').where('u.user_id', '=', ctx.userId);
    if (since !== null) base = base.where('u.day', '>=', since);
    const up = sql<number>`cast(sum(u.bytes_up) as bigint)`.as('up');
    const down = sql<number>`cast(sum(u.bytes_down) as bigint)`.as('down');
    // Per device, then the devices' names and groups from the devices module (one statement,
    // as the joins were): a device deleted since has no name and counts in no group.
    const devicesOf = async () => {
      const rows = await base.where('u.device_id', '<>', 0).select(['u.device_id', up, down]).groupBy('u.device_id').orderBy('u.device_id').execute();
      return { rows, labels: rows.length ? await deviceLabels(this.db, ctx.userId, rows.map((r) => r.device_id)) : new Map<number, DeviceLabel>() };
    };
    const [perProxy, perDevice, perDay] = await Promise.all([
      base.innerJoin('proxies as p', 'p.id', 'u.proxy_id').select(['u.proxy_id', 'p.label', 'p.host', up, down]).groupBy(['u.proxy_id', 'p.label', 'p.host']).orderBy('u.proxy_id').execute(),
      devicesOf(),
      base.select(['u.day', up, down]).groupBy('u.day').orderBy('u.day').execute(),
    ]);
    const totalUp = perProxy.reduce((sum, r) => sum + Number(r.up), 0);
    const totalDown = perProxy.reduce((sum, r) => sum + Number(r.down), 0);
    return {
      period,
      since: toIso(since),
      items: perProxy.map((r) => compact({ proxy_id: r.proxy_id, label: r.label, host: r.host, ...bytes(Number(r.up), Number(r.down)) })),
      devices: perDevice.rows.map((r) => compact({ device_id: r.device_id, device_name: perDevice.labels.get(r.device_id)?.name, ...bytes(Number(r.up), Number(r.down)) })),
      groups: perGroup(perDevice.rows, perDevice.labels),
      days: perDay.map((r) => ({ date: new Date(Number(r.day)).toISOString().slice(0, 10), ...bytes(Number(r.up), Number(r.down)) })),
      ...bytes(totalUp, totalDown),
    };
  }
}
