// @ts-check
// Timing the cases: each through the app's full request path with `app.inject` (warm-up,
// then sequential timed requests), then the SQL the service ran for each, captured from a
// probe app instance and timed directly on the database with its plan.
import { performance } from 'node:perf_hooks';
import { percentile, round } from '../lib.js';
import { verdict } from './cases.js';
import { openRaw } from './raw.js';
import { explain, labelOf } from './sql-plans.js';

/** @typedef {import('./cases.js').Case} Case */
/** @typedef {{ label: string, cases: string[], indexes: Set<string>, fullScans: Set<string>, sorts: Set<string>, jit: boolean }} PlanSummary */

/**
 * One checked request; answers its time in ms. A non-200 or implausible answer stops the run.
 * @param {import('./fixtures.js').App} app
 * @param {Case} c
 * @param {Record<string, string>} headers
 */
async function hit(app, c, headers) {
  const started = performance.now();
  const res = await app.inject({ method: 'GET', url: c.url, headers });
  const ms = performance.now() - started;
  if (res.statusCode !== 200) throw new Error(`${c.name}: GET ${c.url} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
  const problems = c.check(res.json());
  if (problems.length) throw new Error(`${c.name}: GET ${c.url} answered an implausible body: ${problems.slice(0, 5).join('; ')}`);
  return ms;
}

/**
 * Times every case and fills its median, p95, min, max and pass.
 * @param {import('./fixtures.js').App} app
 * @param {Case[]} cases
 * @param {{ warmup: number, samples: number }} opts
 * @param {Record<string, string>} headers
 */
export async function measureCases(app, cases, opts, headers) {
  console.log(`\nMeasuring ${cases.length} cases with app.inject: ${opts.warmup} warm-up + ${opts.samples} timed requests each, one at a time.`);
  for (const c of cases) {
    for (let i = 0; i < opts.warmup; i++) await hit(app, c, headers);
    const times = [];
    for (let i = 0; i < opts.samples; i++) times.push(await hit(app, c, headers));
    times.sort((a, b) => a - b);
    c.median = percentile(times, 50);
    c.p95 = percentile(times, 95);
    c.min = times[0];
    c.max = times[times.length - 1];
    c.pass = c.median < c.goal;
    console.log(`  ${c.name.padEnd(40)} median ${c.median.toFixed(2).padStart(8)} ms  p95 ${c.p95.toFixed(2).padStart(8)} ms  ${verdict(c)}`);
  }
}

/**
 * Captures, times and explains the SQL of every case (filling `c.sql`), printing each
 * statement with its plan; answers the distinct statements with what their plans share.
 * @param {object} probe
 * @param {import('./fixtures.js').App} probe.probeApp the app instance whose Kysely records
 * @param {import('./sql-plans.js').CaptureSql} probe.capture
 * @param {Case[]} probe.cases
 * @param {import('./options.js').HistoryOptions} probe.opts
 * @param {Record<string, string>} probe.headers
 * @param {{ sqliteFile: string | undefined, databaseUrl: string | undefined, pgSchema: string | undefined }} probe.where
 * @param {import('../lib/engine.js').CleanupStack} probe.cleanups
 * @returns {Promise<Map<string, PlanSummary>>} by SQL text
 */
export async function planCases({ probeApp, capture, cases, opts, headers, where, cleanups }) {
  const probe = await openRaw(opts.engine, where);
  cleanups.push(() => probe.close());
  /** @type {Map<string, PlanSummary>} */
  const planSummary = new Map(); // sql → facts
  console.log(`\nSQL run by the service per case (captured from a probe app instance), timed directly on the database (median of ${opts.samples}), with its plan:`);
  for (const c of cases) {
    capture.start();
    try {
      await hit(probeApp, c, headers);
    } finally {
      capture.stop();
    }
    c.sql = [];
    console.log(`\n### ${c.name}  (GET ${c.url})`);
    for (const query of capture.statements()) {
      const run = probe.prepared(query.sql);
      for (let i = 0; i < Math.min(3, opts.warmup); i++) await run(query.parameters);
      const times = [];
      for (let i = 0; i < opts.samples; i++) {
        const started = performance.now();
        await run(query.parameters);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const facts = await explain(probe, opts.engine, query);
      const label = labelOf(query.sql);
      const entry = { label, sql: query.sql, parameters: query.parameters, median_ms: round(percentile(times, 50), 3), ...facts };
      c.sql.push(entry);
      let summary = planSummary.get(query.sql);
      if (!summary) planSummary.set(query.sql, (summary = { label, cases: [], indexes: new Set(), fullScans: new Set(), sorts: new Set(), jit: false }));
      summary.cases.push(c.name);
      for (const index of facts.indexes) summary.indexes.add(index);
      for (const scan of facts.fullScans) summary.fullScans.add(scan);
      for (const sort of facts.sorts) summary.sorts.add(sort);
      summary.jit ||= Boolean(facts.jit);
      console.log(`-- ${label}: ${entry.median_ms.toFixed(3)} ms direct; params ${JSON.stringify(query.parameters)}`);
      console.log(`   ${query.sql}`);
      for (const line of facts.text) console.log(`   | ${line}`);
      if (facts.fullScans.length) console.log(`   !! full scan: ${facts.fullScans.join('; ')}`);
    }
  }
  return planSummary;
}
