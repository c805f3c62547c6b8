#!/usr/bin/env node
// @ts-check
// Run history and run logs at scale (issue: "history stays fast at a million runs").
//
// Builds a fresh database, seeds one user with 200 devices, 10 macros and 1,000,000 runs
// (plus a second user with 100,000 runs, so owner filtering matters) and one run with
// 1,000,000 log lines in 10,000 batches of 100, then measures the real app (`dist/`) through
// Fastify's full request path with `app.inject` (no socket: routing, key gate, rate limiter,
// validation, handler, response serialisation; network noise left out):
//   GET /api/executions                 page 1, page_size 200, each filter alone,
//                                       status+device_id, and a deep page (offset 499,950)
//   GET /api/executions/{id}
//   GET /api/executions/{execution_id}/logs
//                                       newest 1000 / 200 lines, since_seq tail reads,
//                                       since_seq from the middle
// Each case: warm-up, then N sequential timed requests; median and p95. Every response must
// be 200 and exactly what the seed implies (total_rows, row count, order, filters, line
// numbers, cursors), or the run fails.
// Goals: median of every history read < 50 ms (total_rows included), of every log read
// < 20 ms. Two extra history cases (status=completed, since 11 months ago: filters matching
// ~90 % of the runs) are measured and reported against the same goal but do not gate.
// Then, for every case, the SQL the service actually ran (captured from a second app
// instance on the same database through a pass-through Kysely plugin) is timed directly on
// the database and explained (SQLite: EXPLAIN QUERY PLAN; PostgreSQL: EXPLAIN ANALYZE), and
// any full scan of a table or an index is reported. Where the schema keeps stored run totals
// (run_counts), the seed fills them as the reporter would have.
//
// Usage (after `npm run build`, or `npm run bench:history -- [options]`):
//   node bench/history.js [--engine sqlite|postgres] [--samples N] [--warmup N]
//                         [--runs N] [--other-runs N] [--log-batches N] [--batch-lines N]
//                         [--skip-analyze] [--no-vacuum] [--keep]
//   --engine postgres uses DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
//   in a fresh schema, and REDIS_URL (default redis://127.0.0.1:6379) under a fresh key
//   prefix; both are removed afterwards. SQLite uses a file in a fresh temporary directory.
//   After seeding: SQLite `ANALYZE`; PostgreSQL `VACUUM (ANALYZE)` on the seeded tables
//   (`--no-vacuum`: `ANALYZE` only). `--skip-analyze` leaves statistics out entirely (the
//   service itself never runs ANALYZE on SQLite). `--keep` leaves the seeded database (the
//   SQLite file or the PostgreSQL schema) in place for inspection and prints where it is.
// Exit status: 0 when every goal is met, 1 when one is missed or the benchmark fails.
// The parts live in bench/history/: options, deterministic data, seeding, the cases and
// their checks, timing, SQL capture and plans, and the report.
import { cpus, loadavg } from 'node:os';
import { buildApp } from '../dist/app.js';
import { benchAppDeps, benchConfig, openBenchEngine, startBenchApp } from './lib/engine.js';
import { benchTarget, cleanupStack, runMain } from './lib.js';
import { checkHistoryCases, getCase, logCases } from './history/cases.js';
import { measureCases, planCases } from './history/measure.js';
import { options } from './history/options.js';
import { report } from './history/report.js';
import { seedHistory } from './history/seed.js';
import { CaptureSql } from './history/sql-plans.js';

async function main() {
  const opts = options();
  const target = benchTarget(opts.engine, 'history');
  const { pgSchema, databaseUrl } = target;

  const config = benchConfig(target, {
    AUTH_RATE_LIMIT_PER_IP: '1000000000',
  });

  const cleanups = cleanupStack();
  const cleanup = cleanups.run;

  try {
    const { db, redis, sqliteFile } = await openBenchEngine(target, { cleanups, keep: opts.keep, sqliteName: 'history.sqlite' });
    const deps = benchAppDeps(config, db, redis);
    const app = await startBenchApp(deps, cleanups);
    await app.ready();
    // A second instance on the same database whose Kysely records the SQL it compiles; it
    // only answers the one probe request per case, never a timed one.
    const capture = new CaptureSql((node, queryId) => db.kysely.getExecutor().compileQuery(node, queryId));
    const probeKysely = db.kysely.withPlugin(capture);
    const probeApp = await buildApp({ ...deps, db: { ...db, kysely: probeKysely } });
    cleanups.push(() => probeApp.close());
    await probeApp.ready();

    console.log(
      `Run history at scale: engine=${opts.engine}${redis ? ' (+ Redis)' : ''}, ${cpus().length} CPUs, node ${process.version}, ` +
        `1-min load average ${loadavg()[0].toFixed(2)}`,
    );

    const { fx, historyCases, logExecutionId, ownerTotal, seed } = await seedHistory({ app, db, opts, target, sqliteFile, cleanups });

    // The run half-way through the owner's history, for the read by id.
    const [middle] = await db.kysely
      .selectFrom('executions')
      .select(['id', 'execution_id', 'started_at'])
      .where('user_id', '=', fx.owner.id)
      .orderBy('id')
      .limit(1)
      .offset(Math.floor(ownerTotal / 2))
      .execute();
    if (!middle) throw new Error(`no run at offset ${Math.floor(ownerTotal / 2)} of the owner's history`);
    checkHistoryCases(historyCases, new Set(fx.devices.map((d) => d.id)));
    const cases = [...historyCases, getCase(middle), ...logCases(logExecutionId, opts)];

    const headers = { 'x-api-key': fx.key };
    await measureCases(app, cases, opts, headers);
    const planSummary = await planCases({ probeApp, capture, cases, opts, headers, where: { sqliteFile, databaseUrl, pgSchema }, cleanups });
    const failed = report({ cases, planSummary, opts, redis: Boolean(redis), seed });
    await cleanup();
    if (failed.length) process.exitCode = 1;
  } catch (error) {
    await cleanup();
    throw error;
  }
}

runMain('history.js', main);
