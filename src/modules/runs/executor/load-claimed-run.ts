// Gathers what executeRun needs for one claimed run: the run row with its arguments and its
// pinned bundle (both fixed when the run was created), the device's driver (and, on `adb`,
// its serial and ADB server), its history record and the log sink under it.
import type { Db } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import type { DeviceHost } from '../../devices/index.js';
import { historyRecordId } from '../../executions/index.js';
import type { RunArgs } from '../arguments/merge.js';
import { runLogStoreSink } from '../logs/log-sink.js';
import type { AdbTarget } from '../runner/environment.js';
import { loadRunBundle } from './bundle.js';
import type { ClaimedRun } from './execute-run.js';

export interface LoadDeps {
  db: Db;
  clock: Clock;
  host: DeviceHost;
}

/** `host:port/serial` (the placement's slot, `[v6]:port/serial` for IPv6) → the serial and its server. */
export function adbTargetOf(slot: string): AdbTarget | undefined {
  const slash = slot.lastIndexOf('/');
  const match = /^\[?([^[\]]+?)\]?:(\d+)$/.exec(slot.slice(0, slash));
  if (slash < 0 || !match) return undefined;
  return { host: match[1], port: Number(match[2]), serial: slot.slice(slash + 1) };
}

export async function loadClaimedRun(
  deps: LoadDeps,
  runId: number,
  options: Pick<ClaimedRun, 'signal' | 'onStarted' | 'proxyUrl'> = {},
): Promise<ClaimedRun> {
  const { db, clock, host } = deps;
  const run = await db.kysely.selectFrom('cloud_runs').selectAll().where('id', '=', runId).executeTakeFirst();
  if (!run) throw new Error(`no cloud run ${runId}`);
  const bundle = await loadRunBundle(db.kysely, runId);
  if (!bundle) throw new Error(`cloud run ${runId} has no pinned bundle`);
  const args = JSON.parse(run.args) as RunArgs;
  const driver = await host.driver(run.device_id);
  const placement = host.kind === 'adb' ? await host.placement(run.device_id) : null;
  const adb = placement?.slot ? adbTargetOf(placement.slot) : undefined;
  const historyPk = await historyRecordId(db.kysely, run.user_id, run.execution_id);
  if (historyPk === undefined) throw new Error(`cloud run ${runId} has no run history record ${run.execution_id}`);
  return { run, historyPk, bundle, args, driver, adb, logs: runLogStoreSink(db, clock, historyPk), ...options };
}
