// SQLite with transactions that take the write lock when they begin (BEGIN IMMEDIATE), and
// wait for it without holding up the event loop.
//
// Kysely begins with a plain (deferred) BEGIN: such a transaction that reads and then writes
// fails at once with SQLITE_BUSY_SNAPSHOT when another connection to the file (the cloud-run
// thread of `serve`, a `svc worker`, `svc migrate`) committed a write in between, and
// busy_timeout cannot help it. An immediate transaction takes the lock first instead.
//
// better-sqlite3 is synchronous: with busy_timeout, a connection waiting for the lock sleeps
// inside SQLite, and the whole thread (for `serve`, every API request) sleeps with it. So the
// BEGIN IMMEDIATE is tried with no busy wait, and while another connection holds the lock it
// is tried again after an asynchronous pause (1, 2, 4 … 16 ms), up to `lockWaitMs`: requests
// that need no lock go on meanwhile. Statements inside the transaction never wait (it holds
// the lock); statements outside one keep busy_timeout.
//
// Kysely prepares every query afresh; SQLite then parses and plans the same text again each
// time. Prepared statements are kept by their text instead (as better-sqlite3 advises), the
// most recently used STATEMENTS_KEPT of them: a query the service makes again skips the
// parse, which for a trace's batch of 52 steps was a fifth of its write (PERFORMANCE.md).
import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, SqliteDialect, SqliteDriver } from 'kysely';

export interface ImmediateSqliteSettings {
  database: SQLite.Database;
  /** The connection's busy_timeout, restored after each attempt; also how long BEGIN waits in all. */
  lockWaitMs: number;
  /** Prepared statements kept for reuse (default STATEMENTS_KEPT); 0 prepares each query afresh, as Kysely does (a benchmark's baseline). */
  statementsKept?: number;
}

const PRAGMA = /^\s*pragma\b/i;

/** Prepared statements kept per connection; a query's text varies with its list lengths, so old ones go. */
export const STATEMENTS_KEPT = 256;

/**
 * The database as Kysely's driver uses it (prepare and close), with each statement prepared
 * once. Safe to share: the driver runs one query at a time on its one connection (a stream
 * holds the connection until it ends), so a kept statement is never run twice at once.
 */
class StatementCache {
  private readonly kept = new Map<string, SQLite.Statement>();

  constructor(
    private readonly database: SQLite.Database,
    private readonly limit: number,
  ) {}

  prepare(sql: string): SQLite.Statement {
    // SQLite carries out many pragmas while it prepares them: run again, a kept one would do nothing.
    if (this.limit === 0 || PRAGMA.test(sql)) return this.database.prepare(sql);
    let statement = this.kept.get(sql);
    if (statement) {
      // Most recently used last, so the first is the one to let go.
      this.kept.delete(sql);
    } else {
      statement = this.database.prepare(sql);
      if (this.kept.size >= this.limit) this.kept.delete(this.kept.keys().next().value!);
    }
    this.kept.set(sql, statement);
    return statement;
  }

  get size(): number {
    return this.kept.size;
  }

  close(): void {
    this.kept.clear();
    this.database.close();
  }
}

const isBusy = (error: unknown) => typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    private readonly settings: ImmediateSqliteSettings,
    statements: StatementCache,
  ) {
    // Kysely's driver only prepares statements and closes the database: the cache stands in for it.
    super({ database: statements as unknown as SQLite.Database });
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // Each time through pragma(), never a kept statement: SQLite sets busy_timeout while it prepares the pragma.
    const { database, lockWaitMs } = this.settings;
    const deadline = Date.now() + lockWaitMs;
    for (let wait = 1; ; wait = Math.min(wait * 2, 16)) {
      database.pragma('busy_timeout = 0');
      try {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
        return;
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw error;
      } finally {
        database.pragma(`busy_timeout = ${lockWaitMs}`);
      }
      await pause(wait);
    }
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  /** The connection's kept statements. */
  readonly statements: StatementCache;

  constructor(private readonly settings: ImmediateSqliteSettings) {
    super({ database: settings.database });
    this.statements = new StatementCache(settings.database, settings.statementsKept ?? STATEMENTS_KEPT);
  }

  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.settings, this.statements);
  }
}
