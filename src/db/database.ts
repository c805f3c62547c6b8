// Opens the one schema on either engine: better-sqlite3 in DATA_DIR by default, PostgreSQL
// when DATABASE_URL is set. Dialect-specific SQL stays inside src/db/.
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { makePrivateFile, makePrivateFolder, tightenIfPresent } from '../lib/private-files.js';
import type { Database } from './schema.js';
import { startBackgroundCheckpoints } from './background-checkpoints.js';
import { ImmediateSqliteDialect } from './sqlite-dialect.js';
import { LocalWakeup, type Wakeup } from './wakeup.js';
import { pgDriver } from './pg-driver.js';
import { PgWakeup } from './wakeup-pg.js';

export type DialectName = 'sqlite' | 'postgres';

/** How long a SQLite write waits for another connection's write lock before it fails. */
const SQLITE_LOCK_WAIT_MS = 5000;

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Wakes workers when work is queued: LISTEN/NOTIFY on PostgreSQL, in-process on SQLite. */
  wakeup: Wakeup;
  close(): Promise<void>;
  /** Where to report a pooled connection that dropped while idle (PostgreSQL restart, failover). */
  onConnectionError(handler: (error: Error) => void): void;
  /**
   * SQLite only: a number that changes whenever another connection (another process, the
   * sqlite3 shell) commits to the database file; our own commits leave it as it is. Read
   * through one reused prepared statement: a few microseconds, cheap enough per request.
   */
  externalChangeCounter?: () => number;
}

export interface OpenOptions {
  databaseUrl?: string;
  /** SQLite file; `:memory:` for throw-away databases. Ignored for PostgreSQL. */
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests get a fresh one each). */
  pgSchema?: string;
  poolSize?: number;
  /**
   * SQLite file: who copies the write-ahead log back into the file. `background` (the default):
   * a thread of the process (background-checkpoints.ts), so that no commit waits for it;
   * `inline`: the committing connection, as SQLite does by default (a second connection of a
   * process whose first already checkpoints in the background).
   */
  checkpoints?: 'background' | 'inline';
  /** SQLite: prepared statements kept for reuse (sqlite-dialect.ts); 0 only for a benchmark's baseline. */
  statementsKept?: number;
}

/**
 * The embedded database's file, made 0600 in a 0700 DATA_DIR before SQLite opens it: SQLite
 * gives its -wal and -shm files the database's mode, and a cloud run (another user, see
 * RUN_AS_USER) must read none of them.
 */
export function sqliteFileIn(dataDir: string): string {
  makePrivateFolder(dataDir);
  const file = join(dataDir, 'service.sqlite');
  makePrivateFile(file);
  for (const companion of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) tightenIfPresent(companion);
  return file;
}

export function openDatabase(options: OpenOptions): Db {
  if (options.databaseUrl) {
    const pool = new (pgDriver().Pool)({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // Without a listener, an idle client dropped by the server would crash the process; the
    // pool discards that client and opens a new one on next use.
    let report: (error: Error) => void = (error) => {
      process.stderr.write(`database connection dropped: ${error.message}\n`);
    };
    pool.on('error', (error) => report(error));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    // Notifications are per database, not per schema, so the listener needs no search_path.
    const wakeup = new PgWakeup({ connectionString: options.databaseUrl, report: (error) => report(error) });
    return {
      kysely,
      dialect: 'postgres',
      wakeup,
      close: async () => {
        await wakeup.close();
        await kysely.destroy();
      },
      onConnectionError: (handler) => {
        report = handler;
      },
    };
  }
  const file = options.sqliteFile ?? ':memory:';
  const sqlite = new SQLite(file);
  // WAL lets readers proceed during a write; busy_timeout waits out a concurrent writer
  // (for example `svc migrate` while the server runs) instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`busy_timeout = ${SQLITE_LOCK_WAIT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  const kysely = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite, lockWaitMs: SQLITE_LOCK_WAIT_MS, statementsKept: options.statementsKept }) });
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  const checkpoints =
    file !== ':memory:' && options.checkpoints !== 'inline'
      ? startBackgroundCheckpoints(file, { onFailure: (error) => process.stderr.write(`SQLite's background checkpoints stopped (${error.message}); commits checkpoint inline\n`) })
      : undefined;
  return {
    kysely,
    dialect: 'sqlite',
    wakeup: new LocalWakeup(),
    close: async () => {
      // The thread's connection first: the last one to close folds the log into the file.
      await checkpoints?.stop();
      await kysely.destroy();
    },
    onConnectionError: () => undefined,
    externalChangeCounter: () => dataVersion.get() as number,
  };
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}

/**
 * True when a row the statement refers to is gone: another request deleted it between our
 * read and our write (for example a macro deleted while its profile is being created).
 */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string } | null;
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** True when the error is a unique-constraint violation on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
