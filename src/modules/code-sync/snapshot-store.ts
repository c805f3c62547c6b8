// Snapshots in the database: one row per (macro, worktree hash) naming its zip, and a
// pointer to each macro's current one. Every process on a shared database reads the same.
// The zip bytes live once in `code_blobs` under their SHA-256, shared by every snapshot and
// marketplace version with the same bytes (an installed copy adds a row, not a copy).
import { createHash } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
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
const SUMMARY = ['id', 'worktree_hash', 'entry_path', 'size_bytes', 'file_count', 'zip_sha256', 'created_at'] as const;

type Executor = Kysely<Database> | Transaction<Database>;

/** Stores `zip` once under its SHA-256 (a second store of the same bytes writes nothing) and answers the hash. */
export async function storeBlob(db: Executor, zip: Buffer, now: number): Promise<string> {
  const sha256 = createHash('sha256').update(zip).digest('hex');
  const known = await db.selectFrom('code_blobs').select('sha256').where('sha256', '=', sha256).executeTakeFirst();
  if (!known) {
    await db.insertInto('code_blobs').values({ sha256, zip, size_bytes: zip.length, created_at: now }).onConflict((oc) => oc.column('sha256').doNothing()).execute();
  }
  return sha256;
}

export async function readBlob(db: Executor, sha256: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('code_blobs').select('zip').where('sha256', '=', sha256).executeTakeFirst();
  return row ? Buffer.from(row.zip) : undefined;
}

/**
 * Deletes those of `hashes` that no snapshot and no marketplace version names any more.
 * Called after the rows naming them went; a blob named again meanwhile stays.
 */
export async function dropUnusedBlobs(db: Executor, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await db
    .deleteFrom('code_blobs')
    .where('sha256', 'in', [...new Set(hashes)])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('code_snapshots')
            .select('code_snapshots.id')
            .whereRef('code_snapshots.zip_sha256', '=', 'code_blobs.sha256')
            .unionAll(selectFrom('marketplace_versions').select('marketplace_versions.id').whereRef('marketplace_versions.zip_sha256', '=', 'code_blobs.sha256')),
        ),
      ),
    )
    .execute();
}

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
        const zipSha256 = await storeBlob(trx, snapshot.zip, now);
        const inserted = await trx
          .insertInto('code_snapshots')
          .values({
            user_id: snapshot.userId,
            macro_id: snapshot.macroId,
            worktree_hash: snapshot.worktreeHash,
            entry_path: snapshot.entryPath,
            size_bytes: snapshot.sizeBytes,
            file_count: snapshot.fileCount,
            zip_sha256: zipSha256,
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
