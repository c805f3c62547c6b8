// @ts-check
// Direct access to the benchmark's database beside the app's own connection(s), and the bulk
// inserts that seed runs and log batches exactly as the service stores them.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { logLine } from './data.js';
import { APPENDED_BY_SERVICE } from './options.js';

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
 * One connection of its own; `sqlite` or `pg` is set, by engine.
 * @typedef {object} RawCommon
 * @property {(text: string) => Promise<unknown>} exec
 * @property {(text: string, params?: unknown[]) => Promise<any[]>} all
 * @property {(text: string) => (params: unknown[]) => Promise<unknown[]>} prepared
 * @property {() => Promise<void>} close
 * @typedef {RawCommon & ({ sqlite: import('better-sqlite3').Database, pg?: undefined } | { pg: import('pg').Client, sqlite?: undefined })} RawDb
 */

/**
 * Direct access to the database, beside the app's own connection(s): seeding, timing, plans.
 * @param {'sqlite' | 'postgres'} engine
 * @param {{ sqliteFile?: string, databaseUrl?: string, pgSchema?: string }} where
 * @returns {Promise<RawDb>}
 */
export async function openRaw(engine, { sqliteFile, databaseUrl, pgSchema }) {
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
      close: async () => {
        conn.close();
      },
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

/**
 * Inserts the runs in chunks (SQLite: prepared inserts in transactions; PostgreSQL: unnest,
 * committed every 100,000), calling `onRow` for each; answers how many were inserted.
 * @param {RawDb} raw
 * @param {Iterable<Record<string, unknown>>} rows
 * @param {(row: any) => void} onRow
 */
export async function insertExecutions(raw, rows, onRow) {
  const chunkSize = raw.sqlite ? 50_000 : 5_000;
  let inserted = 0;
  if (raw.sqlite) {
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

/**
 * Batches 1..count of the log run, exactly as appendLogBatch stores them; answers the time
 * each batch (by seq) was written, so the service's own appends can follow on.
 * @param {RawDb} raw
 * @param {{ executionPk: number, count: number, batchLines: number, startedAt: number, spanMs: number }} run
 */
export async function insertLogBatches(raw, { executionPk, count, batchLines, startedAt, spanMs }) {
  const batchAt = (seq) => startedAt + Math.floor((seq * spanMs) / (count + APPENDED_BY_SERVICE + 1));
  const batch = (seq) => {
    const lineStart = (seq - 1) * batchLines + 1;
    const at = batchAt(seq);
    const lines = Array.from({ length: batchLines }, (_, i) => logLine(lineStart + i, at - (batchLines - i) * 7));
    return { execution_pk: executionPk, seq, line_start: lineStart, line_count: batchLines, lines: JSON.stringify(lines), created_at: at };
  };
  if (raw.sqlite) {
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
