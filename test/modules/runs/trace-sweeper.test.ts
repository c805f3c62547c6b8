// The retention sweep's second half (sweeper.ts): pictures no trace shows are deleted, and the
// delete failing never fails the round. A writer showing a picture again between the sweep's
// look and its delete (a real foreign-key violation) stops the round quietly; any other
// failure is said once in the operator's log; either way the next round finishes the work.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allModules } from '../../../src/build-modules.js';
import type { Db } from '../../../src/db/database.js';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { sweepTraces } from '../../../src/modules/runs/trace/sweeper.js';
import { blockMacro, closeWorld, cloudDevice, ended, startedRun, world, type World } from './helpers/device-run-world.js';
import { removeTempDirs } from './helpers/runner.js';

const OK = { version: 1, steps: [{ type: 'open_app', package: DEMO_APP_PACKAGE }, { type: 'tap', element_id: 'row_beans' }, { type: 'key', key: 'BACK' }] };
const ROUND_MS = 60_000;

/** Whether a query is `kind` and names the pictures table (a test's crude but sufficient look). */
const isOnPictures = (node: RootOperationNode, kind: RootOperationNode['kind']) => node.kind === kind && JSON.stringify(node).includes('"name":"run_trace_pictures"');

/**
 * The database as the sweep sees it, where `meanwhile` runs just before a delete from the
 * pictures table is sent (after the sweep has looked for unshown pictures). Not a plugin: on
 * SQLite a plugin runs while its query holds the only connection, which `meanwhile` needs.
 */
function beforeDeletingPictures(db: Db, meanwhile: () => Promise<unknown>): Db {
  const wrap = <T extends object>(builder: T): T =>
    new Proxy(builder, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (property === 'execute') return async (...args: unknown[]) => (await meanwhile(), (value as (...a: unknown[]) => unknown).apply(target, args));
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          return out && typeof out === 'object' ? wrap(out) : out;
        };
      },
    });
  const kysely = new Proxy(db.kysely, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== 'deleteFrom' || typeof value !== 'function') return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      return (table: string) => (table === 'run_trace_pictures' ? wrap(target.deleteFrom(table)) : target.deleteFrom(table as 'run_trace_pictures'));
    },
  });
  return { ...db, kysely };
}

/** The database as the sweep sees it, with `plugin` on its queries. */
const withPlugin = (db: Db, plugin: KyselyPlugin): Db => ({ ...db, kysely: db.kysely.withPlugin(plugin) });

describe('sweeping unshown trace pictures', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
    // The runs' workers, not the app's own sweep: its round would hold the sweep's lease.
    w.workers = allModules(w.t.app.modules).flatMap((m) => m.workers ?? []).filter((x) => x.name !== 'run-trace.sweep');
    expect(w.workers.length).toBeGreaterThan(0);
    for (const x of w.workers) x.start();
  });
  afterAll(async () => {
    await closeWorld(w);
    removeTempDirs();
  });

  /** A finished run's trace. */
  const traced = async () => {
    const run = await startedRun(w, await cloudDevice(w), await blockMacro(w, OK));
    await ended(w, run.id);
    const history = await w.t.db.kysely.selectFrom('executions').select('id').where('execution_id', '=', run.execution_id).executeTakeFirstOrThrow();
    return { pk: Number(history.id) };
  };
  const pictures = async () => (await w.t.db.kysely.selectFrom('run_trace_pictures').select('frame_id').orderBy('frame_id').execute()).map((r) => r.frame_id);
  const shownBy = async (pk: number) => (await w.t.db.kysely.selectFrom('run_trace_frames').select('frame_id').where('execution_pk', '=', pk).orderBy('frame_id').execute()).map((r) => r.frame_id);

  test('a picture shown again between the look and the delete stays; the round ends quietly and the next one deletes the rest', async () => {
    // Two runs of one macro: their traces show the same pictures.
    const first = await traced();
    const second = await traced();
    const all = await pictures();
    expect(all.length).toBeGreaterThan(1);
    expect(await shownBy(first.pk)).toEqual(all);
    // No trace shows any picture now; then, while the sweep is between its look and its delete,
    // a writer shows the first picture again for the second trace.
    await w.t.db.kysely.deleteFrom('run_trace_frames').execute();
    const [again] = all as [string];
    const deleteAfterShowingAgain = beforeDeletingPictures(w.t.db, () => w.t.db.kysely.insertInto('run_trace_frames').values({ execution_pk: second.pk, frame_id: again }).execute());
    const warnings: string[] = [];
    const deps = { db: deleteAfterShowingAgain, clock: w.t.clock, days: 14, log: { warn: (_: object, message: string) => void warnings.push(message) } };
    w.t.clock.advance(ROUND_MS);
    expect(await sweepTraces(deps, 'sweeper', ROUND_MS)).toBe(0);
    // The delete failed whole on the foreign key: every picture is still there, nothing said.
    expect(await pictures()).toEqual(all);
    expect(warnings).toEqual([]);
    expect(await shownBy(second.pk)).toEqual([again]);
    // The next round, with no writer in its way, deletes what is still unshown.
    w.t.clock.advance(ROUND_MS);
    expect(await sweepTraces({ ...deps, db: w.t.db }, 'sweeper', ROUND_MS)).toBe(0);
    expect(await pictures()).toEqual([again]);
  });

  test('any other failure of the delete is said once, fails nothing, and the next round deletes', async () => {
    await traced();
    await w.t.db.kysely.deleteFrom('run_trace_frames').execute();
    const left = await pictures();
    expect(left.length).toBeGreaterThan(1);
    const broken: KyselyPlugin = {
      transformQuery: ({ node }: PluginTransformQueryArgs) => {
        if (isOnPictures(node, 'DeleteQueryNode')) throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
        return node;
      },
      transformResult: async ({ result }: PluginTransformResultArgs) => result,
    };
    const warnings: { object: object; message: string }[] = [];
    const deps = { db: withPlugin(w.t.db, broken), clock: w.t.clock, days: 14, log: { warn: (object: object, message: string) => void warnings.push({ object, message }) } };
    w.t.clock.advance(ROUND_MS);
    expect(await sweepTraces(deps, 'sweeper', ROUND_MS)).toBe(0);
    expect(warnings.map((x) => x.message)).toEqual(['sweeping unshown trace pictures failed; retrying next round']);
    expect(String((warnings[0]!.object as { err: unknown }).err)).toContain('disk I/O error');
    expect(await pictures()).toEqual(left);
    w.t.clock.advance(ROUND_MS);
    expect(await sweepTraces({ ...deps, db: w.t.db }, 'sweeper', ROUND_MS)).toBe(0);
    expect(await pictures()).toEqual([]);
  });
});
