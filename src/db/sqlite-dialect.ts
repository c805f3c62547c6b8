// SQLite with transactions that take the write lock when they begin (BEGIN IMMEDIATE).
// Kysely begins with a plain (deferred) BEGIN: such a transaction that reads and then writes
// fails at once with SQLITE_BUSY_SNAPSHOT when another connection to the file (the cloud-run
// thread of `serve`, a `svc worker`, `svc migrate`) committed a write in between, and
// busy_timeout cannot help it. An immediate transaction queues for the lock instead (up to
// busy_timeout), so two connections to one file never answer a request with "database is locked".
import { CompiledQuery, type DatabaseConnection, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from 'kysely';

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.settings);
  }
}
