// Snapshots in the database: one row per (macro, worktree hash) holding the zip, and a
// pointer to each macro's current one. Every process on a shared database reads the same.
import type { Kysely, Selectable } from 'kysely';
import type { CodeSnapshotsTable, Database } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';

export interface NewSnapshot {
  userId: number;
  macroId: number;
  worktreeHash: string;
  entryPath: string;
  sizeBytes: number;
  fileCount: number;
  zip: Buffer;
}

/** Everything but the zip, which only a run needs. */
const SUMMARY = ['id', 'worktree_hash', 'entry_path', 'size_bytes', 'file_count', 'created_at'] as const;

export type SnapshotSummary = Pick<Selectable<CodeSnapshotsTable>, (typeof SUMMARY)[number]>;

export class SnapshotStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async current(macroId: number): Promise<SnapshotSummary | undefined> {
    return this.db
      .selectFrom('code_sync_state as s')
      .innerJoin('code_snapshots as c', 'c.id', 's.snapshot_id')
      .select(SUMMARY.map((column) => `c.${column}` as const))
      .where('s.macro_id', '=', macroId)
      .executeTakeFirst();
  }

  /**
   * Stores the snapshot unless the macro already has one with this hash, and makes it the
   * current one either way. An existing snapshot keeps its files and `created_at`; it takes
   * the entry path of this upload, the one the caller wants run from now on.
   */
  async save(snapshot: NewSnapshot): Promise<{ snapshot: SnapshotSummary; created: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const find = () =>
        trx.selectFrom('code_snapshots').select(SUMMARY).where('macro_id', '=', snapshot.macroId).where('worktree_hash', '=', snapshot.worktreeHash).executeTakeFirst();
      // Look first, so a repeated upload does not send its zip to the database again.
      let existing = await find();
      let created = false;
      if (!existing) {
        const inserted = await trx
          .insertInto('code_snapshots')
          .values({
            user_id: snapshot.userId,
            macro_id: snapshot.macroId,
            worktree_hash: snapshot.worktreeHash,
            entry_path: snapshot.entryPath,
            size_bytes: snapshot.sizeBytes,
            file_count: snapshot.fileCount,
            zip: snapshot.zip,
            created_at: now,
          })
          // A concurrent upload of the same tree may have won; then it is the existing one.
          .onConflict((oc) => oc.columns(['macro_id', 'worktree_hash']).doNothing())
          .returning(SUMMARY)
          .executeTakeFirst();
        created = inserted !== undefined;
        existing = inserted ?? (await find());
      }
      if (!existing) throw new Error('code snapshot vanished inside its own transaction');
      if (!created && existing.entry_path !== snapshot.entryPath) {
        await trx.updateTable('code_snapshots').set({ entry_path: snapshot.entryPath }).where('id', '=', existing.id).execute();
        existing = { ...existing, entry_path: snapshot.entryPath };
      }
      await trx
        .insertInto('code_sync_state')
        .values({ macro_id: snapshot.macroId, snapshot_id: existing.id, updated_at: now })
        .onConflict((oc) => oc.column('macro_id').doUpdateSet({ snapshot_id: existing.id, updated_at: now }))
        .execute();
      return { snapshot: existing, created };
    });
  }
}
