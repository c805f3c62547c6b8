#!/usr/bin/env node
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
import { cpus, loadavg } from 'node:os';
import { URLSearchParams } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../dist/app.js';
import { appendLogBatch } from '../dist/modules/run-logs/store.js';
import { benchAppDeps, benchConfig, openBenchEngine, startBenchApp } from './lib/engine.js';
import { benchTarget, cleanupStack, percentile, round } from './lib.js';

const HISTORY_GOAL_MS = 50;
const LOG_GOAL_MS = 20;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The last batches of the log run go through the service's own appendLogBatch. */
const APPENDED_BY_SERVICE = 10;

function options() {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'sqlite' },
      samples: { type: 'string', default: '30' },
      warmup: { type: 'string', default: '5' },
      runs: { type: 'string', default: '1000000' },
      'other-runs': { type: 'string', default: '100000' },
      'log-batches': { type: 'string', default: '10000' },
      'batch-lines': { type: 'string', default: '100' },
      'skip-analyze': { type: 'boolean', default: false },
      'no-vacuum': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
    },
  });
  const integer = (name, min, max = Number.MAX_SAFE_INTEGER) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be an integer from ${min} to ${max}, got "${values[name]}"`);
    return value;
  };
  if (values.engine !== 'sqlite' && values.engine !== 'postgres') throw new Error(`--engine must be sqlite or postgres, got "${values.engine}"`);
  const opts = {
    engine: values.engine,
    samples: integer('samples', 1),
    warmup: integer('warmup', 0),
    runs: integer('runs', 1000),
    otherRuns: integer('other-runs', 0),
    logBatches: integer('log-batches', APPENDED_BY_SERVICE + 10),
    batchLines: integer('batch-lines', 1, 1000),
    skipAnalyze: values['skip-analyze'],
    vacuum: !values['no-vacuum'],
    keep: values.keep,
  };
  if (opts.runs !== 1_000_000) console.warn(`warning: --runs ${opts.runs}: the issue's goals are set for 1,000,000 runs`);
  return opts;
}

// ---------------------------------------------------------------------------------------
// Deterministic data

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (rand, digits) => {
  let out = '';
  while (out.length < digits) out += Math.floor(rand() * 0x10000).toString(16).padStart(4, '0');
  return out.slice(0, digits);
};

/** A UUID-shaped execution id chosen by the application; the tail is a counter, so ids never collide. */
const executionIdOf = (rand, userId, index) =>
  `${hex(rand, 8)}-${hex(rand, 4)}-4${hex(rand, 3)}-${'89ab'[Math.floor(rand() * 4)]}${hex(rand, 3)}-${(userId * 1e10 + index).toString(16).padStart(12, '0')}`;

const pick = (rand, list) => list[Math.floor(rand() * list.length)];

const FAILURES = [
  'ElementNotFound: "Claim" button not visible after 30 s',
  'TimeoutError: screen did not change within 60000 ms',
  'ADB connection lost (device offline)',
  'ProxyError: tunnel connection failed: 407 Proxy Authentication Required',
  'Traceback (most recent call last):\n  File "src/app.py", line 88, in <module>\n    main()\n  File "src/app.py", line 71, in main\n    claim_daily(ctx)\n  File "src/tasks/daily.py", line 23, in claim_daily\n    ctx.tap_image("claim.png", timeout=30)\n  File "/runner/lib/vision.py", line 140, in tap_image\n    raise ImageNotFound(name, best_score)\nvision.ImageNotFound: claim.png (best match 0.61 < 0.85)',
  'OCRError: could not read balance from region [120, 300, 960, 420]',
  'App crashed: com.example.game (SIGSEGV)',
];
const COUNTRIES = ['US', 'DE', 'GB', 'FR', 'BR', 'IN', 'JP', 'NL', 'CA', 'PL'];

const EXECUTION_COLUMNS = [
  'user_id', 'execution_id', 'status', 'macro_id', 'macro_name', 'device_id', 'device_name', 'device_port', 'group_id', 'execution_type',
  'started_at', 'ended_at', 'duration_ms', 'exit_code', 'error_message', 'proxy_exit_ip', 'proxy_country', 'created_at', 'updated_at',
];
const EXECUTION_PG_TYPES = [
  'bigint', 'text', 'text', 'bigint', 'text', 'bigint', 'text', 'integer', 'bigint', 'text',
  'bigint', 'bigint', 'bigint', 'integer', 'text', 'text', 'text', 'bigint', 'bigint',
];
const BATCH_COLUMNS = ['execution_pk', 'seq', 'line_start', 'line_count', 'lines', 'created_at'];
const BATCH_PG_TYPES = ['bigint', 'integer', 'bigint', 'integer', 'text', 'bigint'];

/**
 * One user's runs, oldest first, each row as ExecutionReporter.create and .update leave it:
 * macro and device snapshot, duration_ms = ended_at − started_at, outcome fields only on
 * ended runs, created_at when the first report arrived, updated_at when the last one did.
 */
function* runsOf({ userId, count, devices, macros, from, to, rand }) {
  const step = (to - from) / count;
  for (let i = 0; i < count; i++) {
    const startedAt = Math.floor(from + i * step + rand() * step);
    const device = pick(rand, devices);
    const macro = pick(rand, macros);
    const r = rand();
    const status = r < 0.9 ? 'completed' : r < 0.95 ? 'failed' : r < 0.99 ? 'stopped' : 'running';
    let duration = null;
    let exitCode = null;
    let errorMessage = null;
    if (status === 'completed') {
      duration = 20_000 + Math.floor(rand() * rand() * 1_200_000);
      exitCode = 0;
    } else if (status === 'failed') {
      duration = 2_000 + Math.floor(rand() * 600_000);
      exitCode = pick(rand, [1, 1, 1, 2, 137]);
      errorMessage = pick(rand, FAILURES);
    } else if (status === 'stopped') {
      duration = 10_000 + Math.floor(rand() * 1_800_000);
      if (rand() < 0.5) {
        exitCode = 143;
        errorMessage = 'Stopped by user';
      }
    }
    const proxied = rand() < 0.4;
    const createdAt = startedAt + 40 + Math.floor(rand() * 400);
    const endedAt = duration === null ? null : startedAt + duration;
    yield {
      user_id: userId,
      execution_id: executionIdOf(rand, userId, i),
      status,
      macro_id: macro.id,
      macro_name: macro.name,
      device_id: device.id,
      device_name: device.name,
      device_port: device.port ?? null,
      group_id: device.group_id ?? null,
      execution_type: macro.kind,
      started_at: startedAt,
      ended_at: endedAt,
      duration_ms: duration,
      exit_code: exitCode,
      error_message: errorMessage,
      proxy_exit_ip: proxied ? `${pick(rand, [23, 45, 78, 91, 104, 185, 212])}.${Math.floor(rand() * 256)}.${Math.floor(rand() * 256)}.${1 + Math.floor(rand() * 254)}` : null,
      proxy_country: proxied ? pick(rand, COUNTRIES) : null,
      created_at: createdAt,
      updated_at: endedAt === null ? createdAt : endedAt + 40 + Math.floor(rand() * 400),
    };
  }
}

/** Two users' runs merged into one stream in start order, as the service receives them. */
function* mergeByStart(a, b) {
  let x = a.next();
  let y = b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && x.value.started_at <= y.value.started_at)) {
      yield x.value;
      x = a.next();
    } else {
      yield y.value;
      y = b.next();
    }
  }
}

const LOG_MESSAGES = [
  'tap (540, 1184) on "Continue"',
  'wait_for image "reward_chest.png" matched 0.93',
  'swipe (540,1600)->(540,400) in 350 ms',
  'ocr [120,300,960,420] -> "Daily bonus x3"',
  'screen state: home_feed (confidence 0.97)',
  'sleep 1500 ms before next action',
  'GET https://api.example.net/v1/quests 200 212ms',
  'element "Skip" not found, retrying (2/5)',
  'loop 14/50: collected 3 items, energy 41',
  'proxy exit 185.22.93.17 (NL), latency 48 ms',
];
const LOG_LEVELS = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN'];

/** Log line number `n` (run-wide, from 1), ~80 characters; the number is readable back. */
function logLine(n, at) {
  return `${new Date(at).toISOString()} ${LOG_LEVELS[n % LOG_LEVELS.length]} #${n} ${LOG_MESSAGES[(n * 7) % LOG_MESSAGES.length]}`;
}
const lineNumber = (line) => {
  const match = / #(\d+) /.exec(line);
  if (!match) throw new Error(`unexpected log line: ${line}`);
  return Number(match[1]);
};

// ---------------------------------------------------------------------------------------
// Infrastructure (as in bench/gate.js)

async function call(app, method, url, { payload, headers = {}, expect = [200, 201] } = {}) {
  const res = await app.inject({ method, url, headers, payload });
  if (!expect.includes(res.statusCode)) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Direct access to the database, beside the app's own connection(s): seeding, timing, plans. */
async function openRaw(engine, { sqliteFile, databaseUrl, pgSchema }) {
  if (engine === 'sqlite') {
    const conn = new SQLite(sqliteFile);
    conn.pragma('busy_timeout = 5000');
    return {
      exec: async (text) => conn.exec(text),
      all: async (text, params = []) => conn.prepare(text).all(...params),
      prepared: (text) => {
        const statement = conn.prepare(text);
        return async (params) => statement.all(...params);
      },
      sqlite: conn,
      close: async () => conn.close(),
    };
  }
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${pgSchema}` });
  await client.connect();
  return {
    exec: async (text) => client.query(text),
    all: async (text, params = []) => (await client.query(text, params)).rows,
    prepared: (text) => async (params) => (await client.query(text, params)).rows,
    pg: client,
    close: () => client.end(),
  };
}

// ---------------------------------------------------------------------------------------
// Seeding

/** Users, groups, macros and devices go through the app's own routes (as sessions). */
async function seedFixtures(app, suffix) {
  const signUp = async (who) => {
    const signedIn = await call(app, 'POST', '/api/auth/signup', { payload: { email: `history-${who}-${suffix}@example.com`, password: `pw-${suffix}-${suffix}`, name: `History ${who}` } });
    return { id: signedIn.user.id, auth: { authorization: `Bearer ${signedIn.session.token}` } };
  };
  const owner = await signUp('owner');
  const other = await signUp('other');
  const post = (user, url, payload) => call(app, 'POST', url, { payload, headers: user.auth });

  const groups = {};
  for (const [name, kind] of [['Farm A', 'byod'], ['Farm B', 'byod'], ['Cloud EU', 'cloud'], ['Cloud US', 'cloud']]) {
    groups[name] = (await post(owner, '/api/emulator/groups', { name, kind })).id;
  }
  const macroNames = ['Daily check-in', 'Claim rewards', 'Farm energy', 'Arena loop', 'Shop refresh', 'Mail collector', 'Quest runner', 'Guild donate', 'Event grinder', 'Login rotator'];
  const macros = [];
  for (const [i, name] of macroNames.entries()) {
    const kind = i % 5 === 4 || i % 5 === 2 ? 'block' : 'python';
    macros.push({ ...(await post(owner, '/api/macros', { name, kind, description: `Bench macro ${i + 1}` })), kind });
  }
  const devices = [];
  for (let i = 0; i < 150; i++) {
    const group = i % 3 === 0 ? groups['Farm A'] : i % 3 === 1 ? groups['Farm B'] : undefined;
    devices.push(await post(owner, '/api/emulator/devices', { name: `Pixel ${i + 1}`, port: 5555 + 2 * i, ...(group ? { group_id: group } : {}) }));
  }
  for (let i = 0; i < 50; i++) {
    const group = i % 5 < 2 ? groups['Cloud EU'] : i % 5 === 2 ? groups['Cloud US'] : undefined;
    devices.push(await post(owner, '/api/hosted/devices', { name: `Cloud phone ${i + 1}`, ...(group ? { group_id: group } : {}) }));
  }
  const otherMacros = [];
  for (const name of ['Other daily', 'Other loop']) otherMacros.push({ ...(await post(other, '/api/macros', { name, kind: 'python' })), kind: 'python' });
  const otherDevices = [];
  for (let i = 0; i < 10; i++) otherDevices.push(await post(other, '/api/emulator/devices', { name: `Other phone ${i + 1}`, port: 6000 + i }));

  const key = await post(owner, '/api/api-keys', { name: 'history bench', expires_in: 'never' });
  if (key.api_key.scopes.length !== 0) throw new Error(`expected a full-access key, got scopes ${JSON.stringify(key.api_key.scopes)}`);
  return { owner, other, macros, devices, otherMacros, otherDevices, key: key.key };
}

async function insertExecutions(raw, engine, rows, onRow) {
  const chunkSize = engine === 'sqlite' ? 50_000 : 5_000;
  let inserted = 0;
  if (engine === 'sqlite') {
    const statement = raw.sqlite.prepare(`insert into executions (${EXECUTION_COLUMNS.join(', ')}) values (${EXECUTION_COLUMNS.map(() => '?').join(', ')})`);
    const insertMany = raw.sqlite.transaction((chunk) => {
      for (const row of chunk) statement.run(EXECUTION_COLUMNS.map((c) => row[c]));
    });
    let chunk = [];
    for (const row of rows) {
      onRow(row);
      chunk.push(row);
      if (chunk.length === chunkSize) {
        insertMany(chunk);
        inserted += chunk.length;
        chunk = [];
      }
    }
    if (chunk.length) insertMany(chunk);
    return inserted + chunk.length;
  }
  const text =
    `insert into executions (${EXECUTION_COLUMNS.join(', ')}) ` +
    `select * from unnest(${EXECUTION_PG_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
  const flush = async (chunk) => {
    await raw.pg.query(text, EXECUTION_COLUMNS.map((c) => chunk.map((row) => row[c])));
    inserted += chunk.length;
  };
  await raw.pg.query('begin');
  let chunk = [];
  for (const row of rows) {
    onRow(row);
    chunk.push(row);
    if (chunk.length === chunkSize) {
      await flush(chunk);
      chunk = [];
      if (inserted % 100_000 === 0) {
        await raw.pg.query('commit');
        await raw.pg.query('begin');
      }
    }
  }
  if (chunk.length) await flush(chunk);
  await raw.pg.query('commit');
  return inserted;
}

/** Batches 1..count of the log run, exactly as appendLogBatch stores them. */
async function insertLogBatches(raw, engine, { executionPk, count, batchLines, startedAt, spanMs }) {
  const batchAt = (seq) => startedAt + Math.floor((seq * spanMs) / (count + APPENDED_BY_SERVICE + 1));
  const batch = (seq) => {
    const lineStart = (seq - 1) * batchLines + 1;
    const at = batchAt(seq);
    const lines = Array.from({ length: batchLines }, (_, i) => logLine(lineStart + i, at - (batchLines - i) * 7));
    return { execution_pk: executionPk, seq, line_start: lineStart, line_count: batchLines, lines: JSON.stringify(lines), created_at: at };
  };
  if (engine === 'sqlite') {
    const statement = raw.sqlite.prepare(`insert into run_log_batches (${BATCH_COLUMNS.join(', ')}) values (${BATCH_COLUMNS.map(() => '?').join(', ')})`);
    raw.sqlite.transaction(() => {
      for (let seq = 1; seq <= count; seq++) statement.run(BATCH_COLUMNS.map((c) => batch(seq)[c]));
    })();
    return batchAt;
  }
  const text = `insert into run_log_batches (${BATCH_COLUMNS.join(', ')}) select * from unnest(${BATCH_PG_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
  await raw.pg.query('begin');
  for (let first = 1; first <= count; first += 500) {
    const chunk = [];
    for (let seq = first; seq <= Math.min(count, first + 499); seq++) chunk.push(batch(seq));
    await raw.pg.query(text, BATCH_COLUMNS.map((c) => chunk.map((row) => row[c])));
  }
  await raw.pg.query('commit');
  return batchAt;
}

// ---------------------------------------------------------------------------------------
// Capturing the SQL the service runs

/**
 * Pass-through plugin: records the compiled SQL of statements on the history and log tables
 * (and on run_counts, where the schema keeps stored totals).
 * A subquery builder passes through transformQuery too (and may share its queryId with the
 * statements built from the same builder), so `statements()` drops any node that is part
 * of another recorded node: what is left is exactly what was sent to the database.
 */
class CaptureSql {
  constructor() {
    this.active = false;
    this.recorded = [];
    this.compile = null;
  }
  start() {
    this.recorded = [];
    this.active = true;
  }
  stop() {
    this.active = false;
  }
  transformQuery(args) {
    if (this.active) this.recorded.push({ node: args.node, compiled: this.compile(args.node, args.queryId) });
    return args.node;
  }
  async transformResult(args) {
    return args.result;
  }
  statements() {
    const nested = new Set();
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

function labelOf(sql) {
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
function pgPlanFacts(plan) {
  const fullScans = [];
  const indexes = new Set();
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

async function explain(raw, engine, query) {
  if (engine === 'sqlite') {
    return sqlitePlan(await raw.all(`EXPLAIN QUERY PLAN ${query.sql}`, query.parameters));
  }
  const [{ 'QUERY PLAN': json }] = await raw.all(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.parameters);
  const facts = pgPlanFacts(json[0].Plan);
  const text = (await raw.all(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.parameters)).map((r) => r['QUERY PLAN']);
  return { ...facts, text, jit: text.some((line) => /^JIT:/.test(line)) };
}

// ---------------------------------------------------------------------------------------

async function main() {
  const opts = options();
  const target = benchTarget(opts.engine, 'history');
  const { suffix, pgSchema, databaseUrl } = target;

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
    const capture = new CaptureSql();
    const probeKysely = db.kysely.withPlugin(capture);
    capture.compile = (node, queryId) => db.kysely.getExecutor().compileQuery(node, queryId);
    const probeApp = await buildApp({ ...deps, db: { ...db, kysely: probeKysely } });
    cleanups.push(() => probeApp.close());
    await probeApp.ready();

    console.log(
      `Run history at scale: engine=${opts.engine}${redis ? ' (+ Redis)' : ''}, ${cpus().length} CPUs, node ${process.version}, ` +
        `1-min load average ${loadavg()[0].toFixed(2)}`,
    );

    // --- Seed -----------------------------------------------------------------------------
    const seedStart = performance.now();
    const fx = await seedFixtures(app, suffix);
    const fixturesMs = performance.now() - seedStart;
    const now = Date.now();
    const from = now - 365 * DAY_MS;
    const to = now - 3 * HOUR_MS;
    const raw = await openRaw(opts.engine, { sqliteFile, databaseUrl, pgSchema });
    cleanups.push(() => raw.close());
    if (opts.engine === 'sqlite') {
      // Seeding connection only: a big page cache for index maintenance; the file is the same.
      raw.sqlite.pragma('cache_size = -262144');
    } else {
      await raw.exec('set synchronous_commit = off');
    }

    // Filter values, and the exact answers the seed implies for each history case.
    const deviceX = fx.devices[16]; // Pixel 17, in group Farm B
    const macroY = fx.macros[3];
    const since = now - 30 * DAY_MS;
    const until = now - 335 * DAY_MS;
    const windowFrom = now - 200 * DAY_MS;
    const windowTo = now - 170 * DAY_MS;
    const iso = (ms) => new Date(ms).toISOString();
    // Half-way through the user's history: page 10000 of 50 at 1,000,000 runs.
    const deepPage = Math.max(2, Math.round(opts.runs / 100));
    const historyCases = [
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
      // Beyond the issue's list, reported but not gating: filters that match most of the
      // history, where total_rows has to count nearly every run.
      { name: 'status=completed (extra)', query: { status: 'completed' }, match: (r) => r.status === 'completed', gating: false },
      { name: 'since (last 11 months) (extra)', query: { since: iso(until) }, match: (r) => r.started_at >= until, gating: false },
    ].map((c) => ({ gating: true, ...c, kind: 'history', goal: HISTORY_GOAL_MS, expectedTotal: 0 }));
    const tally = (row) => {
      for (const c of historyCases) if (c.match(row)) c.expectedTotal++;
    };

    const runsStart = performance.now();
    const rand = mulberry32(20261121);
    const ownerRuns = runsOf({ userId: fx.owner.id, count: opts.runs, devices: fx.devices, macros: fx.macros, from, to, rand });
    const otherRuns = runsOf({ userId: fx.other.id, count: opts.otherRuns, devices: fx.otherDevices, macros: fx.otherMacros, from, to, rand: mulberry32(7) });
    const inserted = await insertExecutions(raw, opts.engine, mergeByStart(ownerRuns, otherRuns), (row) => {
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
    const batchAt = await insertLogBatches(raw, opts.engine, {
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
    if (opts.engine === 'sqlite') raw.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const analyzeMs = performance.now() - analyzeStart;
    const seedMs = performance.now() - seedStart;

    // The seed as the database holds it.
    const [counts] = await raw.all(
      `select (select count(*) from executions where user_id = ${fx.owner.id}) as owner_runs, (select count(*) from executions) as all_runs, ` +
        `(select count(*) from run_log_batches) as batches, (select sum(line_count) from run_log_batches) as lines, ` +
        `(select max(line_start + line_count - 1) from run_log_batches) as last_line, (select sum(run_count) from devices) as run_counts` +
        (runTotals ? `, (select sum(n) from run_counts where user_id = ${fx.owner.id}) as owner_total` : ''),
    );
    const ownerTotal = historyCases[0].expectedTotal;
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

    // --- Cases ----------------------------------------------------------------------------
    const [middle] = await db.kysely
      .selectFrom('executions')
      .select(['id', 'execution_id', 'started_at'])
      .where('user_id', '=', fx.owner.id)
      .orderBy('id')
      .limit(1)
      .offset(Math.floor(ownerTotal / 2))
      .execute();
    const ownerDeviceIds = new Set(fx.devices.map((d) => d.id));
    const qs = (query) => {
      const text = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
      return text ? `?${text}` : '';
    };
    for (const c of historyCases) {
      c.url = `/api/executions${qs(c.query)}`;
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
    const getCase = {
      name: 'run by id',
      gating: true,
      kind: 'history',
      goal: HISTORY_GOAL_MS,
      url: `/api/executions/${middle.id}`,
      check: (body) => (body.id === middle.id && body.execution_id === middle.execution_id && Date.parse(body.started_at) === Number(middle.started_at) ? [] : [`got ${JSON.stringify(body).slice(0, 200)}`]),
    };
    const lastSeq = opts.logBatches;
    const midSeq = Math.floor(opts.logBatches / 2);
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
    });
    const perBatch = opts.batchLines;
    const cases = [
      ...historyCases,
      getCase,
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

    // --- Measure --------------------------------------------------------------------------
    const headers = { 'x-api-key': fx.key };
    const verdict = (c) => (c.gating ? (c.pass ? 'PASS' : 'FAIL') : c.pass ? 'pass (extra)' : 'MISS (extra)');
    const hit = async (target, c) => {
      const started = performance.now();
      const res = await target.inject({ method: 'GET', url: c.url, headers });
      const ms = performance.now() - started;
      if (res.statusCode !== 200) throw new Error(`${c.name}: GET ${c.url} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
      const problems = c.check(res.json());
      if (problems.length) throw new Error(`${c.name}: GET ${c.url} answered an implausible body: ${problems.slice(0, 5).join('; ')}`);
      return ms;
    };
    console.log(`\nMeasuring ${cases.length} cases with app.inject: ${opts.warmup} warm-up + ${opts.samples} timed requests each, one at a time.`);
    for (const c of cases) {
      for (let i = 0; i < opts.warmup; i++) await hit(app, c);
      const times = [];
      for (let i = 0; i < opts.samples; i++) times.push(await hit(app, c));
      times.sort((a, b) => a - b);
      c.median = percentile(times, 50);
      c.p95 = percentile(times, 95);
      c.min = times[0];
      c.max = times[times.length - 1];
      c.pass = c.median < c.goal;
      console.log(`  ${c.name.padEnd(40)} median ${c.median.toFixed(2).padStart(8)} ms  p95 ${c.p95.toFixed(2).padStart(8)} ms  ${verdict(c)}`);
    }

    // --- SQL per case: direct timing and plans --------------------------------------------
    const probe = await openRaw(opts.engine, { sqliteFile, databaseUrl, pgSchema });
    cleanups.push(() => probe.close());
    const planSummary = new Map(); // sql → facts
    console.log(`\nSQL run by the service per case (captured from a probe app instance), timed directly on the database (median of ${opts.samples}), with its plan:`);
    for (const c of cases) {
      capture.start();
      try {
        await hit(probeApp, c);
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
        if (!planSummary.has(query.sql)) planSummary.set(query.sql, { label, cases: [], indexes: new Set(), fullScans: new Set(), sorts: new Set(), jit: false });
        const summary = planSummary.get(query.sql);
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

    // --- Report ---------------------------------------------------------------------------
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
    const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
    const line = (row) => `| ${row.map((cell, i) => (i === 0 || i === 6 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;
    console.log('');
    console.log(line(rows[0]));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const row of rows.slice(1)) console.log(line(row));
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
    await cleanup();
    if (failed.length) process.exitCode = 1;
  } catch (error) {
    await cleanup();
    throw error;
  }
}

main().catch((error) => {
  console.error(`bench/history.js failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
