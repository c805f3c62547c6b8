// @ts-check
// The requests the history benchmark times, each with the exact answer the seed implies:
// history cases count their expected total while the runs are generated (`tally`), so the
// check knows total_rows, row count, order and filter before the first request.
import { URLSearchParams } from 'node:url';
import { lineNumber } from './data.js';
import { DAY_MS, HISTORY_GOAL_MS, LOG_GOAL_MS } from './options.js';

/**
 * What the database's plan says of one statement (see sql-plans.js).
 * @typedef {{ text: string[], fullScans: string[], indexes: string[], sorts: string[], jit?: boolean }} PlanFacts
 * @typedef {PlanFacts & { label: string, sql: string, parameters: unknown[], median_ms: number }} SqlEntry
 */

/**
 * One timed request; the measured fields start empty and are filled by measure.js.
 * @typedef {object} Case
 * @property {string} name
 * @property {boolean} gating false: reported against the goal, but the exit status ignores it
 * @property {'history' | 'logs'} kind
 * @property {number} goal the median goal in ms
 * @property {string} url
 * @property {(body: any) => string[]} check the problems with an answer (none: plausible)
 * @property {number} median
 * @property {number} p95
 * @property {number} min
 * @property {number} max
 * @property {boolean} pass
 * @property {SqlEntry[]} sql the statements the service ran for it, timed directly
 */

/**
 * @typedef {{ status: string, device_id: number, macro_id: number, started_at: number }} RunFacts
 * @typedef {{ page?: number, page_size?: number, status?: string, device_id?: number, macro_id?: number, since?: string, until?: string }} HistoryQuery
 * @typedef {Case & { query: HistoryQuery, match: (run: RunFacts) => boolean, expectedTotal: number }} HistoryCase
 */

/** @returns {Pick<Case, 'median' | 'p95' | 'min' | 'max' | 'pass' | 'sql'>} */
const unmeasured = () => ({ median: NaN, p95: NaN, min: NaN, max: NaN, pass: false, sql: [] });

/** @param {Record<string, string | number>} query */
const qs = (query) => {
  const text = new URLSearchParams(Object.entries(query).map(([k, v]) => /** @type {[string, string]} */ ([k, String(v)]))).toString();
  return text ? `?${text}` : '';
};

/**
 * The history list cases, their expected totals still zero; `tally` counts one of the
 * owner's runs into every case whose filter it matches.
 * @param {{ devices: { id: number }[], macros: { id: number }[] }} fx
 * @param {number} now
 * @param {number} runs the owner's run count (`--runs`)
 */
export function historyCases(fx, now, runs) {
  // Filter values, and the exact answers the seed implies for each history case.
  const deviceX = fx.devices[16]; // Pixel 17, in group Farm B
  const macroY = fx.macros[3];
  const since = now - 30 * DAY_MS;
  const until = now - 335 * DAY_MS;
  const windowFrom = now - 200 * DAY_MS;
  const windowTo = now - 170 * DAY_MS;
  /** @param {number} ms */
  const iso = (ms) => new Date(ms).toISOString();
  // Half-way through the user's history: page 10000 of 50 at 1,000,000 runs.
  const deepPage = Math.max(2, Math.round(runs / 100));
  /** @type {{ name: string, query: HistoryQuery, match: (r: RunFacts) => boolean, gating?: boolean }[]} */
  const list = [
    { name: 'list, page 1 (50)', query: {}, match: () => true },
    { name: 'list, page_size=200', query: { page_size: 200 }, match: () => true },
    { name: 'status=failed', query: { status: 'failed' }, match: (r) => r.status === 'failed' },
    { name: 'status=running', query: { status: 'running' }, match: (r) => r.status === 'running' },
    { name: 'device_id', query: { device_id: deviceX.id }, match: (r) => r.device_id === deviceX.id },
    { name: 'macro_id', query: { macro_id: macroY.id }, match: (r) => r.macro_id === macroY.id },
    { name: 'since (last 30 days)', query: { since: iso(since) }, match: (r) => r.started_at >= since },
    { name: 'until (older than 335 days)', query: { until: iso(until) }, match: (r) => r.started_at <= until },
    { name: 'since+until (30-day window)', query: { since: iso(windowFrom), until: iso(windowTo) }, match: (r) => r.started_at >= windowFrom && r.started_at <= windowTo },
    { name: 'status=failed+device_id', query: { status: 'failed', device_id: deviceX.id }, match: (r) => r.status === 'failed' && r.device_id === deviceX.id },
    { name: `deep page ${deepPage} (offset ${((deepPage - 1) * 50).toLocaleString('en-US')})`, query: { page: deepPage, page_size: 50 }, match: () => true },
    // Beyond the list, reported but not gating: filters that match most of the
    // history, where total_rows has to count nearly every run.
    { name: 'status=completed (extra)', query: { status: 'completed' }, match: (r) => r.status === 'completed', gating: false },
    { name: 'since (last 11 months) (extra)', query: { since: iso(until) }, match: (r) => r.started_at >= until, gating: false },
  ];
  /** @type {HistoryCase[]} */
  const cases = list.map((c) => ({ gating: true, ...c, kind: 'history', goal: HISTORY_GOAL_MS, expectedTotal: 0, url: `/api/executions${qs(c.query)}`, check: () => [], ...unmeasured() }));
  /** @param {RunFacts} row */
  const tally = (row) => {
    for (const c of cases) if (c.match(row)) c.expectedTotal++;
  };
  return { cases, tally };
}

/**
 * Gives each history case its check, once the seed has fixed its expected total: page and
 * totals, row count, every row matching the filter, the owner's, newest first, ended fields.
 * @param {HistoryCase[]} cases
 * @param {Set<number>} ownerDeviceIds
 */
export function checkHistoryCases(cases, ownerDeviceIds) {
  for (const c of cases) {
    const page = c.query.page ?? 1;
    const pageSize = c.query.page_size ?? 50;
    const expectedRows = Math.max(0, Math.min(pageSize, c.expectedTotal - (page - 1) * pageSize));
    c.check = (body) => {
      const problems = [];
      if (body.page !== page || body.page_size !== pageSize) problems.push(`page ${body.page}/${body.page_size}`);
      if (!(body.total_rows > 0) || body.total_rows !== c.expectedTotal) problems.push(`total_rows ${body.total_rows}, expected ${c.expectedTotal}`);
      if (body.total_pages !== Math.ceil(c.expectedTotal / pageSize)) problems.push(`total_pages ${body.total_pages}`);
      if (body.rows.length !== expectedRows || expectedRows === 0) problems.push(`${body.rows.length} rows, expected ${expectedRows}`);
      body.rows.forEach((row, i) => {
        const record = { status: row.status, device_id: row.device_id, macro_id: row.macro_id, started_at: Date.parse(row.started_at) };
        if (!c.match(record)) problems.push(`row ${row.id} does not match the filter`);
        if (!ownerDeviceIds.has(row.device_id)) problems.push(`row ${row.id} is not the user's`);
        const prev = body.rows[i - 1];
        if (prev && (Date.parse(prev.started_at) < record.started_at || (prev.started_at === row.started_at && prev.id < row.id))) problems.push(`row ${row.id} out of order`);
        if (row.status !== 'running' && (row.ended_at === undefined || row.duration_ms !== Date.parse(row.ended_at) - record.started_at)) problems.push(`row ${row.id} ended fields`);
      });
      return problems;
    };
  }
}

/**
 * One run read by id: the run half-way through the owner's history.
 * @param {{ id: number, execution_id: string, started_at: number | string }} middle
 * @returns {Case}
 */
export function getCase(middle) {
  return {
    name: 'run by id',
    gating: true,
    kind: 'history',
    goal: HISTORY_GOAL_MS,
    url: `/api/executions/${middle.id}`,
    check: (body) => (body.id === middle.id && body.execution_id === middle.execution_id && Date.parse(body.started_at) === Number(middle.started_at) ? [] : [`got ${JSON.stringify(body).slice(0, 200)}`]),
    ...unmeasured(),
  };
}

/**
 * The log reads of the one long run: newest lines, tail reads by since_seq, and a read from
 * the middle; each answer's line numbers must be exactly the expected ones.
 * @param {string} logExecutionId
 * @param {{ logBatches: number, batchLines: number }} opts
 * @returns {Case[]}
 */
export function logCases(logExecutionId, opts) {
  const totalLines = opts.logBatches * opts.batchLines;
  const lastSeq = opts.logBatches;
  const midSeq = Math.floor(opts.logBatches / 2);
  /**
   * @param {string} name
   * @param {Record<string, number>} query
   * @param {{ count: number, first: number, lastSeq: number }} expect
   * @returns {Case}
   */
  const logCase = (name, query, expect) => ({
    name,
    gating: true,
    kind: 'logs',
    goal: LOG_GOAL_MS,
    url: `/api/executions/${logExecutionId}/logs${qs(query)}`,
    check: (body) => {
      const problems = [];
      if (body.execution_id !== logExecutionId) problems.push(`execution_id ${body.execution_id}`);
      if (body.last_seq !== expect.lastSeq) problems.push(`last_seq ${body.last_seq}, expected ${expect.lastSeq}`);
      if (body.lines.length !== expect.count) problems.push(`${body.lines.length} lines, expected ${expect.count}`);
      body.lines.forEach((line, i) => {
        if (lineNumber(line) !== expect.first + i) problems.push(`line ${i} is #${lineNumber(line)}, expected #${expect.first + i}`);
      });
      return problems.slice(0, 5);
    },
    ...unmeasured(),
  });
  const perBatch = opts.batchLines;
  return [
    logCase('logs, newest 1000 (max_lines=1000)', { max_lines: 1000 }, { count: 1000, first: totalLines - 999, lastSeq }),
    logCase('logs, newest 200 (default)', {}, { count: 200, first: totalLines - 199, lastSeq }),
    logCase(`logs, since_seq=last−5 (max_lines=1000)`, { since_seq: lastSeq - 5, max_lines: 1000 }, { count: 5 * perBatch, first: (lastSeq - 5) * perBatch + 1, lastSeq }),
    logCase('logs, since_seq=last (nothing new)', { since_seq: lastSeq }, { count: 0, first: 0, lastSeq }),
    logCase(
      `logs, since_seq=${midSeq} (max_lines=1000)`,
      { since_seq: midSeq, max_lines: 1000 },
      { count: Math.floor(1000 / perBatch) * perBatch, first: midSeq * perBatch + 1, lastSeq: midSeq + Math.floor(1000 / perBatch) },
    ),
  ];
}

/**
 * The result column: gating cases PASS or FAIL, extra ones pass or MISS.
 * @param {Case} c
 */
export const verdict = (c) => (c.gating ? (c.pass ? 'PASS' : 'FAIL') : c.pass ? 'pass (extra)' : 'MISS (extra)');
