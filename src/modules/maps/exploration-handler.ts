// What the exploration job does with one claimed exploration: mark it running, make its device
// ready, explore (explorer/), and end it with the map in one transaction, each write only
// while the claim holds the row. The device hold is renewed with the progress and released
// with the end. A stop (the row turned `stopped`) is seen at the next progress write.
import { completeJob, updateWhileHeld } from '../../db/jobs/leases.js';
import type { Db } from '../../db/database.js';
import type { Lease } from '../../db/jobs/kind.js';
import type { JobHandlers, JobLog } from '../../db/jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import { type ServiceContext, workerContext } from '../../core/context.js';
import { messageOf } from '../../lib/error-message.js';
import { type DeviceDriver, type DeviceHost, type DeviceLifecycle, releaseJobHold, renewJobHold } from '../devices/index.js';
import { doNotTouchMatcher } from './explorer/do-not-touch.js';
import { Explorer } from './explorer/explorer.js';
import type { ExploreEnd, ExploreProgress, ExploreResult } from './explorer/types.js';
import type { ExplorationJob } from './exploration-job.js';
import { replaceMap } from './map-store.js';
import type { ExplorationRow } from './present.js';

/** Where screen thumbnails go: the owner's image library (source `crop`, decisions.md §13). */
export interface ThumbnailStore {
  store(ctx: ServiceContext, input: { name: string; bytes: Buffer; source: 'crop' }): Promise<{ id: string }>;
  remove(ctx: ServiceContext, id: string): Promise<void>;
}

/** `startAndWait` makes the device ready (starting it if it is stopped), as runs do: the device lifecycle. */
export type ExplorationReadiness = Pick<DeviceLifecycle, 'startAndWait'>;

export interface ExplorationHandlerDeps {
  db: Db;
  clock: Clock;
  kind: ExplorationJob;
  host: DeviceHost;
  readiness: ExplorationReadiness;
  /** Absent: maps are learned without thumbnails. */
  thumbnails?: ThumbnailStore;
  log: JobLog;
  /** Aborted when the worker shuts down. */
  shutdown: AbortSignal;
}

export const WORKER_LOST = 'the worker exploring the app was lost (it stopped or crashed); the map was not changed';
/** The device hold while exploring: renewed with every progress write. */
const HOLD_MS = 2 * 60_000;
/** Thumbnails: a JPEG this high at most (a phone screen is about 2.2 times as high as wide). */
const THUMBNAIL_EDGE = 480;
/** The request id of the library writes an exploration makes for its owner. */
const EXPLORATION_REQUEST = 'map.exploration';
/** Progress is written at most this often. */
const PROGRESS_MS = 250;

const ENDINGS: Record<Exclude<ExploreEnd, 'stopped'>, (row: ExplorationRow) => string> = {
  complete: () => 'complete: every screen found was explored',
  max_screens: (row) => `stopped at max_screens (${row.max_screens}); the app may have more screens`,
  max_minutes: (row) => `stopped at max_minutes (${row.max_minutes}); the app may have more screens`,
  max_actions: () => 'stopped at the action limit',
};

export function explorationHandlers(deps: ExplorationHandlerDeps): JobHandlers<ExplorationJob> {
  const { db, clock, kind } = deps;

  /** Progress, while the lease holds and nobody stopped it; false means stop exploring. */
  async function progress(lease: Lease, row: ExplorationRow, p: ExploreProgress): Promise<boolean> {
    const now = clock.now();
    const result = await db.kysely
      .updateTable('map_explorations')
      .set({ screens_found: p.screens, transitions_found: p.transitions, actions: p.actions, updated_at: now })
      .where('id', '=', lease.id)
      .where('locked_by', '=', lease.token)
      .where('locked_until', '>', now)
      .where('state', '=', 'running')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    return row.lease_id === null || renewJobHold(db.kysely, row.lease_id, now, now + HOLD_MS);
  }

  /** Ends the exploration; with a result (done, or stopped on request) the map is replaced in the same transaction. */
  async function end(lease: Lease, row: ExplorationRow, outcome: { state: 'done' | 'failed'; message: string } | { state: 'stopped' }, result?: ExploreResult, thumbnails: Map<string, string> = new Map()): Promise<boolean> {
    let unused: string[] = [...thumbnails.values()];
    const ended = await db.kysely.transaction().execute(async (trx) => {
      const now = clock.now();
      const current = await trx.selectFrom('map_explorations').select('state').where('id', '=', lease.id).executeTakeFirst();
      const counts = result ? { screens_found: result.screens.length, transitions_found: result.transitions.length, actions: result.actions } : {};
      // A stop on request already set the state and the time; the worker adds what it found.
      const set =
        outcome.state === 'stopped' || current?.state === 'stopped'
          ? { ...counts, updated_at: now }
          : { ...counts, state: outcome.state, state_message: outcome.message, finished_at: now, updated_at: now };
      if (!(await completeJob(trx, kind, lease, now, set))) return false;
      if (result && outcome.state !== 'failed') unused = await replaceMap(trx, { userId: row.user_id, package: row.package, explorationId: row.id, result, thumbnails, now });
      if (row.lease_id) await releaseJobHold(trx, row.lease_id);
      return true;
    });
    // The replaced map's thumbnails, or this exploration's when its map was not kept.
    await removeThumbnails(row.user_id, ended ? unused : [...thumbnails.values()]);
    return ended;
  }

  async function removeThumbnails(userId: number, ids: string[]): Promise<void> {
    const store = deps.thumbnails;
    if (!store) return;
    for (const id of ids) await store.remove(workerContext(userId, EXPLORATION_REQUEST), id).catch(() => undefined);
  }

  /** The new screen's picture into the library; a failure costs only the thumbnail. */
  async function thumbnail(row: ExplorationRow, driver: DeviceDriver, screenId: string, into: Map<string, string>): Promise<void> {
    const store = deps.thumbnails;
    if (!store) return;
    try {
      const shot = await driver.screenshot({ format: 'jpeg', maxEdge: THUMBNAIL_EDGE, quality: 70 });
      const image = await store.store(workerContext(row.user_id, EXPLORATION_REQUEST), { name: `Menu map of ${row.package}: ${screenId}`, bytes: shot.data, source: 'crop' });
      into.set(screenId, image.id);
    } catch (error) {
      deps.log.warn({ job: kind.name, id: row.id, reason: messageOf(error) }, "a screen's thumbnail could not be stored; the map goes without it");
    }
  }

  async function explore(lease: Lease, row: ExplorationRow, signal: AbortSignal): Promise<void> {
    const deviceId = row.device_id;
    if (deviceId === null) {
      await end(lease, row, { state: 'failed', message: 'the device was deleted before the exploration started' });
      return;
    }
    const startedAt = clock.now();
    const running = await updateWhileHeld(db.kysely, kind, lease, startedAt, { state: 'running', started_at: startedAt, updated_at: startedAt });
    if (!running) return;
    if (row.lease_id && !(await renewJobHold(db.kysely, row.lease_id, startedAt, startedAt + HOLD_MS))) {
      await end(lease, row, { state: 'failed', message: 'the device was stopped or taken before the exploration started' });
      return;
    }
    const stop = new AbortController();
    const all = AbortSignal.any([signal, stop.signal, deps.shutdown]);
    let result: ExploreResult;
    const thumbnails = new Map<string, string>();
    try {
      await deps.readiness.startAndWait({ userId: row.user_id }, { id: deviceId }, { signal: all });
      const driver = await deps.host.driver(deviceId);
      let lastWrite = 0;
      result = await new Explorer(driver, {
        package: row.package,
        maxScreens: row.max_screens,
        deadline: startedAt + row.max_minutes * 60_000,
        now: () => clock.now(),
        doNotTouch: doNotTouchMatcher(JSON.parse(row.do_not_touch) as string[]),
        signal: all,
        onNewScreen: (screenId) => thumbnail(row, driver, screenId, thumbnails),
        onProgress: async (p) => {
          if (Date.now() - lastWrite < PROGRESS_MS) return;
          lastWrite = Date.now();
          if (!(await progress(lease, row, p))) stop.abort();
        },
      }).run();
    } catch (error) {
      // The lease was lost or the job timed out: another worker ends it.
      if (signal.aborted) return removeThumbnails(row.user_id, [...thumbnails.values()]);
      const message = deps.shutdown.aborted ? 'the worker shut down during the exploration' : `the exploration failed: ${messageOf(error)}`;
      await end(lease, row, { state: 'failed', message }, undefined, thumbnails);
      return;
    }
    if (result.end === 'stopped') {
      if (signal.aborted) return;
      if (deps.shutdown.aborted && !stop.signal.aborted) {
        await end(lease, row, { state: 'failed', message: 'the worker shut down during the exploration' }, result, thumbnails);
        return;
      }
      // Stopped on request: what was learned so far becomes the map.
      await end(lease, row, { state: 'stopped' }, result, thumbnails);
      return;
    }
    await end(lease, row, { state: 'done', message: ENDINGS[result.end](row) }, result, thumbnails);
  }

  return {
    async run({ lease, payload, signal }) {
      await explore(lease, payload, signal);
    },
    async lapsed(lease) {
      // The worker died (or hung) mid-exploration: end it, keep the old map, free the device.
      const row = await db.kysely.selectFrom('map_explorations').selectAll().where('id', '=', lease.id).executeTakeFirst();
      if (!row) return;
      await end(lease, row, { state: 'failed', message: WORKER_LOST });
    },
  };
}
