// @ts-check
// The history benchmark's report: the distinct statements with their indexes and full scans,
// the table of cases against their goals, what missed, and a final line of JSON.
import { cpus, loadavg } from 'node:os';
import { printTable, round } from '../lib.js';
import { verdict } from './cases.js';
import { HISTORY_GOAL_MS, LOG_GOAL_MS } from './options.js';

/**
 * Prints the report; answers the gating cases that missed their goal.
 * @param {object} results
 * @param {import('./cases.js').Case[]} results.cases
 * @param {Map<string, import('./measure.js').PlanSummary>} results.planSummary
 * @param {import('./options.js').HistoryOptions} results.opts
 * @param {boolean} results.redis whether the app ran with Redis
 * @param {object} results.seed what was seeded and how long it took
 */
export function report({ cases, planSummary, opts, redis, seed }) {
  console.log('\nQuery shapes (distinct SQL text), the index each uses, and full scans:');
  let shape = 0;
  for (const [text, s] of planSummary) {
    shape++;
    console.log(
      `  Q${shape} ${s.label.padEnd(20)} index: ${[...s.indexes].join(', ') || '(none)'}` +
        `${s.sorts.size ? `; sort: ${[...s.sorts].join(', ')}` : ''}${s.jit ? '; JIT used' : ''}` +
        `; full scan: ${s.fullScans.size ? [...s.fullScans].join(', ') : 'none'}`,
    );
    console.log(`      ${text}`);
    console.log(`      cases: ${s.cases.join(' | ')}`);
  }
  const fullScans = cases.flatMap((c) => c.sql.flatMap((q) => q.fullScans.map((scan) => `${c.name} / ${q.label}: ${scan}`)));
  console.log(`Full scans of a table or an index: ${fullScans.length ? `\n  ${fullScans.join('\n  ')}` : 'none'}`);

  const rows = [
    ['case', 'median ms', 'p95 ms', 'min ms', 'max ms', 'goal', 'db ms (direct, per statement)', 'result'],
    ...cases.map((c) => [
      c.name,
      c.median.toFixed(2),
      c.p95.toFixed(2),
      c.min.toFixed(2),
      c.max.toFixed(2),
      `< ${c.goal} ms`,
      c.sql.map((q) => `${q.label} ${q.median_ms.toFixed(2)}`).join(', '),
      verdict(c),
    ]),
  ];
  printTable(rows, [0, 6]);
  const failed = cases.filter((c) => c.gating && !c.pass);
  console.log('');
  if (failed.length === 0) console.log(`All goals met: every history read median < ${HISTORY_GOAL_MS} ms, every log read median < ${LOG_GOAL_MS} ms.`);
  for (const c of cases.filter((x) => !x.pass)) {
    const slowest = [...c.sql].sort((a, b) => b.median_ms - a.median_ms)[0];
    console.log(
      `${c.gating ? 'MISSED' : 'MISSED (extra case, not gating)'}: ${c.name}: median ${c.median.toFixed(2)} ms ≥ ${c.goal} ms; slowest statement: ${slowest ? `${slowest.label} ${slowest.median_ms.toFixed(2)} ms (${slowest.indexes.join(', ') || 'no index'})` : 'none'}`,
    );
  }
  console.log(
    JSON.stringify({
      bench: 'history',
      engine: opts.engine,
      redis: Boolean(redis),
      transport: 'app.inject',
      node: process.version,
      cpus: cpus().length,
      loadavg_1m: round(loadavg()[0]),
      samples: opts.samples,
      warmup: opts.warmup,
      seed,
      cases: cases.map((c) => ({
        name: c.name,
        kind: c.kind,
        url: c.url,
        median_ms: round(c.median),
        p95_ms: round(c.p95),
        min_ms: round(c.min),
        max_ms: round(c.max),
        goal_ms: c.goal,
        gating: c.gating,
        pass: c.pass,
        db: c.sql.map((q) => ({ label: q.label, median_ms: q.median_ms, indexes: q.indexes, full_scans: q.fullScans })),
      })),
      full_scans: fullScans,
      pass: failed.length === 0,
    }),
  );
  return failed;
}
