// @ts-check
// Seeding the history benchmark's database: fixtures through the routes, then the runs and
// the one long log run in bulk (the newest log batches through the service's own append),
// the stored run totals as the reporter keeps them, the planner's statistics, and a check
// that the database holds exactly what the cases expect.
import { performance } from 'node:perf_hooks';
import { round } from '../lib.js';
import { appendLogBatch } from '../../dist/modules/run-logs/index.js';
import { historyCases } from './cases.js';
import { logLine, mergeByStart, mulberry32, runsOf } from './data.js';
import { call, seedFixtures } from './fixtures.js';
import { APPENDED_BY_SERVICE, DAY_MS, HOUR_MS } from './options.js';
import { insertExecutions, insertLogBatches, openRaw } from './raw.js';

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Seeds everything and prints what was seeded and how long each part took.
 * @param {object} setup
 * @param {import('./fixtures.js').App} setup.app
 * @param {import('../lib/engine.js').Db} setup.db
 * @param {import('./options.js').HistoryOptions} setup.opts
 * @param {import('../lib/engine.js').BenchTarget} setup.target
 * @param {string | undefined} setup.sqliteFile
 * @param {import('../lib/engine.js').CleanupStack} setup.cleanups
 */
export async function seedHistory({ app, db, opts, target, sqliteFile, cleanups }) {
  const { suffix, pgSchema, databaseUrl } = target;
  const seedStart = performance.now();
  const fx = await seedFixtures(app, suffix);
  const fixturesMs = performance.now() - seedStart;
  const now = Date.now();
  const from = now - 365 * DAY_MS;
  const to = now - 3 * HOUR_MS;
  const raw = await openRaw(opts.engine, { sqliteFile, databaseUrl, pgSchema });
  cleanups.push(() => raw.close());
  if (raw.sqlite) {
    // Seeding connection only: a big page cache for index maintenance; the file is the same.
    raw.sqlite.pragma('cache_size = -262144');
  } else {
    await raw.exec('set synchronous_commit = off');
  }
  const { cases, tally } = historyCases(fx, now, opts.runs);
  /** @param {number} ms */
  const iso = (ms) => new Date(ms).toISOString();


  const runsStart = performance.now();
  const rand = mulberry32(20261121);
  const ownerRuns = runsOf({ userId: fx.owner.id, count: opts.runs, devices: fx.devices, macros: fx.macros, from, to, rand });
  const otherRuns = runsOf({ userId: fx.other.id, count: opts.otherRuns, devices: fx.otherDevices, macros: fx.otherMacros, from, to, rand: mulberry32(7) });
  const inserted = await insertExecutions(raw, mergeByStart(ownerRuns, otherRuns), (row) => {
    if (row.user_id === fx.owner.id) tally(row);
  });
  const runsMs = performance.now() - runsStart;

  // The log run: a cloud run reported through the app (running, started two hours ago).
  const logsStart = performance.now();
  const logDevice = fx.devices[150]; // Cloud phone 1
  const logMacro = fx.macros[0];
  const logRunStartedAt = now - 2 * HOUR_MS;
  const logExecutionId = `cloud-${suffix}`;
  const logRun = await call(app, 'POST', '/api/executions/report', {
    headers: fx.owner.auth,
    payload: { execution_id: logExecutionId, status: 'running', macro_id: logMacro.id, device_id: logDevice.id, execution_type: logMacro.kind, started_at: iso(logRunStartedAt) },
  });
  tally({ status: 'running', device_id: logDevice.id, macro_id: logMacro.id, started_at: logRunStartedAt });
  const bulkBatches = opts.logBatches - APPENDED_BY_SERVICE;
  const batchAt = await insertLogBatches(raw, {
    executionPk: logRun.id,
    count: bulkBatches,
    batchLines: opts.batchLines,
    startedAt: logRunStartedAt,
    spanMs: 2 * HOUR_MS - 60_000,
  });
  // The newest batches through the service's own append: it reads the last batch to number
  // the next, so a seeded row that the service would not have written shows up here.
  for (let seq = bulkBatches + 1; seq <= opts.logBatches; seq++) {
    const lineStart = (seq - 1) * opts.batchLines + 1;
    const lines = Array.from({ length: opts.batchLines }, (_, i) => logLine(lineStart + i, batchAt(seq) - (opts.batchLines - i) * 7));
    const appended = await appendLogBatch(db, logRun.id, lines, batchAt(seq));
    if (appended.seq !== seq || appended.lineStart !== lineStart) {
      throw new Error(`appendLogBatch numbered batch ${seq} as seq ${appended.seq}, line_start ${appended.lineStart}; expected line_start ${lineStart}`);
    }
  }
  const logsMs = performance.now() - logsStart;
  const totalLines = opts.logBatches * opts.batchLines;

  // devices.run_count is kept by the reporter in the same transaction as each run.
  const runCountStart = performance.now();
  await raw.exec(
    'update devices set run_count = counted.runs from (select device_id, count(*) as runs from executions group by device_id) as counted where counted.device_id = devices.id',
  );
  // Where the schema keeps per-user, per-status run totals (run_counts), the reporter moves
  // them with every run; fill them the way their migration does from existing history.
  const runTotals = opts.engine === 'sqlite'
    ? (await raw.all("select name from sqlite_master where type = 'table' and name = 'run_counts'")).length > 0
    : (await raw.all("select to_regclass('run_counts') as t"))[0].t !== null;
  if (runTotals) {
    await raw.exec('delete from run_counts');
    await raw.exec('insert into run_counts (user_id, status, n) select user_id, status, count(*) from executions group by user_id, status');
  }
  const runCountMs = performance.now() - runCountStart;
  const analyzeStart = performance.now();
  let statistics;
  if (opts.skipAnalyze) statistics = 'none (--skip-analyze)';
  else if (opts.engine === 'sqlite') {
    await raw.exec('ANALYZE');
    statistics = 'ANALYZE';
  } else {
    const tables = `executions, run_log_batches, devices, macros, device_groups, macro_setting_profiles, users, subscriptions, sessions, api_keys, events${runTotals ? ', run_counts' : ''}`;
    await raw.exec(opts.vacuum ? `vacuum (analyze) ${tables}` : `analyze ${tables}`);
    statistics = opts.vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE';
  }
  if (raw.sqlite) raw.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const analyzeMs = performance.now() - analyzeStart;
  const seedMs = performance.now() - seedStart;

  // The seed as the database holds it.
  const [counts] = await raw.all(
    `select (select count(*) from executions where user_id = ${fx.owner.id}) as owner_runs, (select count(*) from executions) as all_runs, ` +
      `(select count(*) from run_log_batches) as batches, (select sum(line_count) from run_log_batches) as lines, ` +
      `(select max(line_start + line_count - 1) from run_log_batches) as last_line, (select sum(run_count) from devices) as run_counts` +
      (runTotals ? `, (select sum(n) from run_counts where user_id = ${fx.owner.id}) as owner_total` : ''),
  );
  const ownerTotal = cases[0].expectedTotal;
  if (Number(counts.owner_runs) !== ownerTotal || Number(counts.all_runs) !== inserted + 1 || Number(counts.batches) !== opts.logBatches || Number(counts.lines) !== totalLines || Number(counts.last_line) !== totalLines || Number(counts.run_counts) !== inserted + 1 || (runTotals && Number(counts.owner_total) !== ownerTotal)) {
    throw new Error(`seed check failed: ${JSON.stringify(counts)}; expected owner ${ownerTotal}, all ${inserted + 1}, batches ${opts.logBatches}, lines ${totalLines}`);
  }
  const seed = {
    owner_runs: ownerTotal,
    other_runs: opts.otherRuns,
    devices: fx.devices.length,
    macros: fx.macros.length,
    log_batches: opts.logBatches,
    log_lines: totalLines,
    fixtures_s: round(fixturesMs / 1000, 1),
    runs_s: round(runsMs / 1000, 1),
    run_count_s: round(runCountMs / 1000, 1),
    logs_s: round(logsMs / 1000, 1),
    analyze_s: round(analyzeMs / 1000, 1),
    total_s: round(seedMs / 1000, 1),
    statistics,
    run_counts_table: runTotals,
  };
  console.log(
    `Seeded ${ownerTotal.toLocaleString('en-US')} runs for the user (+ ${opts.otherRuns.toLocaleString('en-US')} for a second user), ` +
      `${fx.devices.length} devices, ${fx.macros.length} macros; ${opts.logBatches.toLocaleString('en-US')} log batches × ${opts.batchLines} lines ` +
      `= ${totalLines.toLocaleString('en-US')} lines in one run.`,
  );
  console.log(
    `  seeding ${seconds(seedMs)}: fixtures through the routes ${seconds(fixturesMs)}, runs ${seconds(runsMs)}, logs ${seconds(logsMs)}, ` +
      `devices.run_count${runTotals ? ' + run_counts' : ''} ${seconds(runCountMs)}, statistics (${statistics}) ${seconds(analyzeMs)}`,
  );
  await raw.close();
  cleanups.pop();

  return { fx, historyCases: cases, logExecutionId, ownerTotal, seed };
}
