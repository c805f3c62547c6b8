// Run counts in shards: every run start and end of an account moved the same (user, status)
// row, so on PostgreSQL an account's concurrent run starts queued behind that row's lock until
// each transaction committed (measured with 100 schedules of one account firing in the same
// minute: bench/scheduler.js, docs/PERFORMANCE.md). The count of a status is now the sum of up
// to RUN_COUNT_SHARDS rows (executions/run-counts.ts), and a change moves one of them at random.
import { type Kysely, type Migration, sql } from 'kysely';
import { RUN_STATUSES } from '../../core/values.js';
import { oneOf, refType } from '../columns.js';
import type { DialectName } from '../database.js';

export function runCountShards(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        await sql`alter table run_counts add column shard smallint not null default 0`.execute(db);
        await sql`alter table run_counts drop constraint run_counts_pk`.execute(db);
        await sql`alter table run_counts add constraint run_counts_pk primary key (user_id, status, shard)`.execute(db);
        return;
      }
      // SQLite cannot change a primary key in place: the table is made again.
      await db.schema
        .createTable('run_counts_sharded')
        .addColumn('user_id', refType(dialect), (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('shard', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('run_counts_pk', ['user_id', 'status', 'shard'])
        .addCheckConstraint('run_counts_status_check', oneOf('status', RUN_STATUSES))
        .execute();
      await sql`insert into run_counts_sharded (user_id, status, shard, n) select user_id, status, 0, n from run_counts`.execute(db);
      await db.schema.dropTable('run_counts').execute();
      await db.schema.alterTable('run_counts_sharded').renameTo('run_counts').execute();
    },
  };
}
