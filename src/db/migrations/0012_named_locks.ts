// Named locks: a short exclusive lease on a name, shared by every process on the database
// (src/db/named-locks.ts). The ADB host takes one per phone around each UI dump, because
// Android lets one UI automation client connect at a time and a second dump fails
// ("UiAutomationService … already registered").
import type { Kysely, Migration } from 'kysely';

export function namedLocks(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('named_locks')
        .addColumn('name', 'text', (c) => c.primaryKey())
        // Unique per take: only the taker releases it.
        .addColumn('holder', 'text', (c) => c.notNull())
        // A crashed holder's lock is free again after this time.
        .addColumn('locked_until', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
