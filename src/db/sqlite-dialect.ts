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
import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, SqliteDialect, SqliteDriver } from 'kysely';

export interface ImmediateSqliteSettings {
  database: SQLite.Database;
  /** The connection's busy_timeout, restored after each attempt; also how long BEGIN waits in all. */
  lockWaitMs: number;
}

const isBusy = (error: unknown) => typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class ImmediateSqliteDriver extends SqliteDriver {
  constructor(private readonly settings: ImmediateSqliteSettings) {
    super({ database: settings.database });
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
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
  constructor(private readonly settings: ImmediateSqliteSettings) {
    super({ database: settings.database });
  }

  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.settings);
  }
}
