// Code shared beyond its macro: the marketplace freezes a macro's current snapshot into a
// version (naming its zip in `code_blobs`, never copying it) and gives an installed copy a
// snapshot of those same bytes; a cloud run pins the current zip. Every function takes the
// caller's transaction, so a publish or an install is one commit.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type FileVisitor, readZipFiles } from './zip-reader.js';
import { SNAPSHOT_LIMITS } from './limits.js';
import { readTree } from './tree.js';
import { firstImageUses } from './warnings.js';
import { dropUnusedBlobs, readBlob } from './snapshot-store.js';

type Executor = Kysely<Database> | Transaction<Database>;

export interface SharedSnapshot {
  worktreeHash: string;
  entryPath: string;
  sizeBytes: number;
  fileCount: number;
  zipSha256: string;
}

const LIMITS = { maxFiles: SNAPSHOT_LIMITS.maxFiles, maxUncompressedBytes: SNAPSHOT_LIMITS.maxUncompressedBytes };

/** The macro's current snapshot (undefined before its first sync). */
export async function currentSnapshotOf(db: Executor, userId: number, macroId: number): Promise<SharedSnapshot | undefined> {
  const row = await db
    .selectFrom('code_sync_state as s')
    .innerJoin('code_snapshots as c', 'c.id', 's.snapshot_id')
    .select(['c.worktree_hash', 'c.entry_path', 'c.size_bytes', 'c.file_count', 'c.zip_sha256'])
    .where('s.macro_id', '=', macroId)
    .where('c.user_id', '=', userId)
    .executeTakeFirst();
  return row && { worktreeHash: row.worktree_hash, entryPath: row.entry_path, sizeBytes: row.size_bytes, fileCount: row.file_count, zipSha256: row.zip_sha256 };
}

/** The macro's current snapshot with its zip's bytes, in one statement: what a cloud run pins when it is created (undefined before the first sync). */
export async function currentSnapshotZip(db: Executor, userId: number, macroId: number): Promise<{ zip: Buffer; worktreeHash: string; entryPath: string } | undefined> {
  const row = await db
    .selectFrom('code_sync_state as s')
    .innerJoin('code_snapshots as c', 'c.id', 's.snapshot_id')
    .innerJoin('code_blobs as b', 'b.sha256', 'c.zip_sha256')
    .select(['b.zip', 'c.worktree_hash', 'c.entry_path'])
    .where('s.macro_id', '=', macroId)
    .where('c.user_id', '=', userId)
    .executeTakeFirst();
  return row && { zip: Buffer.from(row.zip), worktreeHash: row.worktree_hash, entryPath: row.entry_path };
}

/** Calls `visit` with every file of the stored zip, in zip order (the upload checked it already). */
export async function visitSnapshotFiles(db: Executor, zipSha256: string, visit: FileVisitor): Promise<void> {
  const zip = await readBlob(db, zipSha256);
  if (!zip) throw new Error(`code blob ${zipSha256} is missing`);
  await readZipFiles(zip, LIMITS, visit);
}

/** The image ids the stored zip's `.py` files reference (decisions.md §5), in order of first use. */
export async function imageIdsOfSnapshot(db: Executor, zipSha256: string): Promise<string[]> {
  const zip = await readBlob(db, zipSha256);
  if (!zip) throw new Error(`code blob ${zipSha256} is missing`);
  return firstImageUses(await readTree(zip, LIMITS)).map((use) => use.id);
}

/**
 * Makes `snapshot` the current code of `macroId` (the installer's macro) without copying its
 * bytes: the new snapshot row names the same blob.
 */
export async function adoptSnapshot(trx: Executor, userId: number, macroId: number, snapshot: SharedSnapshot, now: number): Promise<void> {
  await trx
    .insertInto('code_snapshots')
    .values({
      user_id: userId,
      macro_id: macroId,
      worktree_hash: snapshot.worktreeHash,
      entry_path: snapshot.entryPath,
      size_bytes: snapshot.sizeBytes,
      file_count: snapshot.fileCount,
      zip_sha256: snapshot.zipSha256,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['macro_id', 'worktree_hash']).doNothing())
    .execute();
  const { id } = await trx
    .selectFrom('code_snapshots')
    .select('id')
    .where('macro_id', '=', macroId)
    .where('worktree_hash', '=', snapshot.worktreeHash)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('code_sync_state')
    .values({ macro_id: macroId, snapshot_id: id, updated_at: now })
    .onConflict((oc) => oc.column('macro_id').doUpdateSet({ snapshot_id: id, updated_at: now }))
    .execute();
}

/** Deletes a macro's snapshots and then the zips nothing else names; call before deleting the macro. */
export async function removeMacroCode(trx: Executor, macroId: number): Promise<void> {
  const rows = await trx.selectFrom('code_snapshots').select('zip_sha256').where('macro_id', '=', macroId).execute();
  await trx.deleteFrom('code_sync_state').where('macro_id', '=', macroId).execute();
  await trx.deleteFrom('code_snapshots').where('macro_id', '=', macroId).execute();
  await dropUnusedBlobs(trx, rows.map((row) => row.zip_sha256));
}

export { dropUnusedBlobs };
