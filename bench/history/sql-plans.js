// @ts-check
// Capturing the SQL the service runs, and reading the database's plan for it.

/** @typedef {import('kysely').KyselyPlugin} KyselyPlugin */
/** @typedef {import('kysely').RootOperationNode} RootOperationNode */
/** @typedef {import('kysely').CompiledQuery} CompiledQuery */
/** @typedef {{ sql: string, parameters: unknown[] }} CapturedQuery */

/**
 * Pass-through plugin: records the compiled SQL of statements on the history and log tables
 * (and on run_counts, where the schema keeps stored totals).
 * A subquery builder passes through transformQuery too (and may share its queryId with the
 * statements built from the same builder), so `statements()` drops any node that is part
 * of another recorded node: what is left is exactly what was sent to the database.
 * @implements {KyselyPlugin}
 */
export class CaptureSql {
  /** @param {(node: RootOperationNode, queryId: import('kysely').QueryId) => CompiledQuery} compile compiles as the app's own Kysely does */
  constructor(compile) {
    this.active = false;
    /** @type {{ node: RootOperationNode, compiled: CompiledQuery }[]} */
    this.recorded = [];
    this.compile = compile;
  }
  start() {
    this.recorded = [];
    this.active = true;
  }
  stop() {
    this.active = false;
  }
  /** @param {import('kysely').PluginTransformQueryArgs} args */
  transformQuery(args) {
    if (this.active) this.recorded.push({ node: args.node, compiled: this.compile(args.node, args.queryId) });
    return args.node;
  }
  /** @param {import('kysely').PluginTransformResultArgs} args */
  async transformResult(args) {
    return args.result;
  }
  /** @returns {CapturedQuery[]} */
  statements() {
    /** @type {Set<unknown>} */
    const nested = new Set();
    /** @param {unknown} value @param {unknown} root */
    const walk = (value, root) => {
      if (value === null || typeof value !== 'object') return;
      if (value !== root) nested.add(value);
      for (const child of Object.values(value)) walk(child, root);
    };
    for (const { node } of this.recorded) walk(node, node);
    return this.recorded
      .filter(({ node, compiled }) => !nested.has(node) && /^select/i.test(compiled.sql) && /"(executions|run_log_batches|run_counts)"/.test(compiled.sql))
      .map(({ compiled }) => ({ sql: compiled.sql, parameters: [...compiled.parameters] }));
  }
}

/**
 * A short name for a captured statement, by what it reads.
 * @param {string} sql
 */
export function labelOf(sql) {
  if (/from "run_counts"/.test(sql)) return 'stored total';
  if (/count\(\*\)/i.test(sql)) return 'count';
  if (/from "run_log_batches"/.test(sql)) {
    if (/"lines"/.test(sql)) return 'batches';
    if (/"seq" >/.test(sql)) return 'next batch';
    if (/"line_start" <=/.test(sql)) return 'first batch';
    return 'newest batch';
  }
  if (/"execution_id" =/.test(sql)) return 'run by execution_id';
  if (/"id" =/.test(sql)) return 'run by id';
  return 'rows';
}

/** SQLite: "SCAN x" is a walk over a whole table or index; "SEARCH x" is a bounded range. */
/**
 * @param {{ id: number, parent: number, detail: string }[]} rows EXPLAIN QUERY PLAN's rows
 * @returns {import('./cases.js').PlanFacts}
 */
function sqlitePlan(rows) {
  const lines = rows.map((row) => {
    let depth = 0;
    for (let parent = row.parent; parent !== 0; depth++) parent = rows.find((r) => r.id === parent)?.parent ?? 0;
    return `${'  '.repeat(depth)}${row.detail}`;
  });
  const fullScans = rows.filter((r) => /^SCAN /.test(r.detail)).map((r) => r.detail);
  const indexes = [...new Set(rows.flatMap((r) => [...r.detail.matchAll(/USING (?:COVERING )?INDEX (\w+)|USING (INTEGER PRIMARY KEY)/g)].map((m) => m[1] ?? m[2])))];
  const sorts = rows.filter((r) => /TEMP B-TREE/.test(r.detail)).map((r) => r.detail);
  return { text: lines, fullScans, indexes, sorts };
}

/** PostgreSQL: a Seq Scan, or an index scan with no Index Cond, reads a whole table or index. */
/** @param {any} plan the root of EXPLAIN (FORMAT JSON) */
function pgPlanFacts(plan) {
  /** @type {string[]} */
  const fullScans = [];
  /** @type {Set<string>} */
  const indexes = new Set();
  /** @type {string[]} */
  const sorts = [];
  const walk = (node) => {
    const type = node['Node Type'];
    if (/Seq Scan/.test(type)) fullScans.push(`${type} on ${node['Relation Name']} (planned rows ${node['Plan Rows']})`);
    if (/Index/.test(type) && node['Index Name']) {
      indexes.add(node['Index Name']);
      if (!node['Index Cond']) fullScans.push(`${type} on ${node['Index Name']} without an index condition`);
    }
    if (/Sort/.test(type)) sorts.push(`${type} (${(node['Sort Key'] ?? []).join(', ')})`);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  return { fullScans, indexes: [...indexes], sorts };
}

/**
 * The plan of one statement and the full scans, indexes and sorts in it; on PostgreSQL the
 * statement runs (EXPLAIN ANALYZE), so the text shows real times and whether JIT ran.
 * @param {import('./raw.js').RawDb} raw
 * @param {'sqlite' | 'postgres'} engine
 * @param {CapturedQuery} query
 * @returns {Promise<import('./cases.js').PlanFacts>}
 */
export async function explain(raw, engine, query) {
  if (engine === 'sqlite') {
    return sqlitePlan(await raw.all(`EXPLAIN QUERY PLAN ${query.sql}`, query.parameters));
  }
  const [{ 'QUERY PLAN': json }] = await raw.all(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.parameters);
  const facts = pgPlanFacts(json[0].Plan);
  const text = (await raw.all(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.parameters)).map((r) => r['QUERY PLAN']);
  return { ...facts, text, jit: text.some((line) => /^JIT:/.test(line)) };
}
