#!/usr/bin/env node
// @ts-check
// Menu-map exploration on `sim` (issue 19, "Speed": exploring the demo app completely under
// 30 s), in one process against the build (dist/), on a fresh SQLite file (the embedded
// default; every device call reads and writes the device's state there, as in `serve`):
//   - the explorer on the demo app, complete, with a thumbnail screenshot (JPEG, 480 px) of
//     every new screen, as the job takes them; --rounds times, a fresh device state each time
//   - the baseline in the same run: replaying every screen's recorded path from a fresh start
//     of the app (the least work that still visits each screen once), so the ratio says how
//     much the exploration costs beyond merely walking the map
//   - the generated Field Guide app (63 screens) within 300 actions: time and coverage
//
// Usage (after `npm run build`): node bench/maps.js [--rounds N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openDatabase } from '../dist/db/database.js';
import { migrateToLatest } from '../dist/db/migrate.js';
import { DEMO_APP_PACKAGE, FIELD_GUIDE_PACKAGE, fieldGuideApp, SimHost } from '../dist/modules/devices/index.js';
import { DEFAULT_DO_NOT_TOUCH, doNotTouchMatcher } from '../dist/modules/maps/explorer/do-not-touch.js';
import { Explorer, replayPath } from '../dist/modules/maps/explorer/explorer.js';
import { percentile, round } from './lib.js';

const GOAL_MS = 30_000;
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number ≥ 1');

const dir = mkdtempSync(join(tmpdir(), 'bench-maps-'));
const db = openDatabase({ sqliteFile: join(dir, 'bench.sqlite') });
try {
  await migrateToLatest(db);
  const now = Date.now();
  const user = await db.kysely.insertInto('users').values({ email: 'bench@example.com', name: 'Bench', password_hash: 'x', created_at: now, disabled_at: null }).returning('id').executeTakeFirstOrThrow();
  const device = await db.kysely
    .insertInto('devices')
    .values({ user_id: user.id, name: 'Bench phone', port: null, is_hosted: 1, hosted_state: 'stopped', group_id: null, macro_id: null, profile_id: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const host = new SimHost({ db, bootMs: 0, apps: [fieldGuideApp()] });
  await host.place(device.id);
  await host.boot(device.id);
  const driver = await host.driver(device.id);

  /** @param {string} pkg @param {number} [maxActions] */
  const explore = (pkg, maxActions) =>
    new Explorer(driver, {
      package: pkg,
      maxScreens: 500,
      deadline: Date.now() + 10 * 60_000,
      now: Date.now,
      maxActions,
      doNotTouch: doNotTouchMatcher(DEFAULT_DO_NOT_TOUCH),
      onNewScreen: async () => {
        await driver.screenshot({ format: 'jpeg', maxEdge: 480, quality: 70 });
      },
    }).run();

  const times = [];
  const baselines = [];
  let last;
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    last = await explore(DEMO_APP_PACKAGE);
    times.push(performance.now() - started);
    if (last.end !== 'complete') throw new Error(`the demo app's exploration ended ${last.end}`);
    const replayStarted = performance.now();
    for (const screen of last.screens) await replayPath(driver, DEMO_APP_PACKAGE, screen.path);
    baselines.push(performance.now() - replayStarted);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const baseSorted = [...baselines].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const baseP50 = percentile(baseSorted, 50);
  const large = performance.now();
  const field = await explore(FIELD_GUIDE_PACKAGE, 300);
  const largeMs = performance.now() - large;
  const report = {
    rounds,
    demo: { screens: last?.screens.length, transitions: last?.transitions.length, actions: last?.actions, p50_ms: round(p50), max_ms: round(sorted[sorted.length - 1]), goal_ms: GOAL_MS },
    baseline_replay_every_screen: { p50_ms: round(baseP50) },
    ratio_explore_to_baseline: round(p50 / baseP50),
    field_guide_300_actions: { ms: round(largeMs), screens: field.screens.length, transitions: field.transitions.length, actions: field.actions, end: field.end },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (sorted[sorted.length - 1] >= GOAL_MS) process.exitCode = 1;
  await host.close();
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
