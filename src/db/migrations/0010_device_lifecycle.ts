// The device lifecycle job (decisions.md §3, §9): the devices table is its queue. A device in
// `placing`, `starting` or `stopping`, or one whose deletion was asked for, is due; a worker
// claims it with the lease columns every queue table carries, so a worker that dies mid-boot
// leaves a lease that runs out and the next worker takes the device over.
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';

export function deviceLifecycle(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('devices').addColumn('locked_until', 'bigint').execute();
      await db.schema.alterTable('devices').addColumn('locked_by', 'text').execute();
      // Set by DELETE on a device that must be shut down first; the job deletes the row after.
      await db.schema.alterTable('devices').addColumn('delete_requested_at', 'bigint').execute();
      // The queue: only devices in motion, so the claim never scans the idle ones.
      await db.schema
        .createIndex('devices_lifecycle_due_idx')
        .on('devices')
        .columns(['updated_at', 'id'])
        .where((eb) => eb.or([eb(sql.ref('hosted_state'), 'in', ['placing', 'starting', 'stopping']), eb(sql.ref('delete_requested_at'), 'is not', null)]))
        .execute();
    },
  };
}
