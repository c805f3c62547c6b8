// Code sync for keys with `macros:run`: accept a code macro's project as a zip, check it
// (limits, hostile content, the worktree hash), and keep it as the macro's current snapshot.
// Every check runs before anything is written, so a refused upload changes nothing.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import type { IdInput } from '../../core/schema.js';
import { decodeBase64Strict, decodedLength } from '../../lib/base64.js';
import { type Clock, toIso } from '../../lib/clock.js';
import type { ImageLibrary } from '../images/index.js';
import { findOwnedMacro } from '../macros/index.js';
import { chooseEntry } from './entry.js';
import { SnapshotRefusedError, zipRefused } from './errors.js';
import { worktreeHash } from './hash.js';
import type { SnapshotUpload, SnapshotUploadAnswer } from './schemas.js';
import { currentTextFiles, type InstallFilesInput, type TextFile, textFilesUpload } from './project-files.js';
import { readTree } from './tree.js';
import { type SnapshotSummary, SnapshotStore } from './snapshot-store.js';
import { firstImageUses, snapshotWarnings } from './warnings.js';
import { SNAPSHOT_LIMITS } from './limits.js';

function presentState(row: SnapshotSummary) {
  return { worktree_hash: row.worktree_hash, entry_path: row.entry_path, size_bytes: row.size_bytes, file_count: row.file_count, created_at: toIso(row.created_at) };
}

function decodeZip(text: string): Buffer {
  const { maxZipBytes } = SNAPSHOT_LIMITS;
  // Measured before decoding: an oversized upload costs no decoding.
  if (decodedLength(text) > maxZipBytes) throw zipRefused('zip_too_large', `decodes to more than ${maxZipBytes} bytes (10 MiB)`, { limit: maxZipBytes });
  const zip = decodeBase64Strict(text);
  if (!zip) throw zipRefused('invalid_base64', 'is not valid base64 (standard alphabet, padded with =, no spaces or line breaks)');
  return zip;
}

export class CodeSyncService {
  private readonly store: SnapshotStore;

  constructor(
    private readonly db: Kysely<Database>,
    clock: Clock,
    private readonly images: Pick<ImageLibrary, 'ownedIds'>,
  ) {
    this.store = new SnapshotStore(db, clock);
  }

  /** The caller's code macro; a block macro has no code to sync and is not found here. */
  private async findCodeMacro(userId: number, macroId: number) {
    const macro = await findOwnedMacro(this.db, userId, macroId);
    if (macro.kind !== 'python') throw new NotFoundError('This macro is a block macro; only code (python) macros have code snapshots.');
    return macro;
  }

  async state(ctx: ServiceContext, input: IdInput) {
    const { state } = await this.summary(ctx, input);
    if (!state) throw new NotFoundError('This macro has never been synced. Upload its code with POST /api/macros/{id}/code-snapshot.', 'code_not_synced');
    return state;
  }

  /** The console's view: the same state, or `synced: false` for a macro that never synced (no 404 to log). */
  async summary(ctx: ServiceContext, input: IdInput) {
    await this.findCodeMacro(ctx.userId, input.id);
    const current = await this.store.current(input.id);
    return { synced: current !== undefined, state: current ? presentState(current) : null };
  }

  /** The macro's current code as UTF-8 text files; empty when it never synced. 404 for someone else's or a block macro. */
  currentFiles(ctx: Pick<ServiceContext, 'userId'>, input: { macro_id: number }): Promise<TextFile[]> {
    return currentTextFiles(this.db, ctx, input.macro_id);
  }

  /** Installs text files as the macro's snapshot through `upload`, so every check of an upload applies (the authoring agent, the recorder, macro_install_code). */
  async installFiles(ctx: ServiceContext, { macro_id: macroId, ...files }: InstallFilesInput): Promise<SnapshotUploadAnswer> {
    return this.upload(ctx, { id: macroId, ...(await textFilesUpload(files)) });
  }

  async upload(ctx: ServiceContext, { id: macroId, ...input }: IdInput & SnapshotUpload): Promise<SnapshotUploadAnswer> {
    const { userId } = ctx;
    await this.findCodeMacro(userId, macroId);
    const zip = decodeZip(input.zip_file_base64);
    const files = await readTree(zip, SNAPSHOT_LIMITS);
    const computed = worktreeHash(files);
    if (computed !== input.worktree_hash) {
      throw new SnapshotRefusedError('hash_mismatch', 'worktree_hash', `does not match the zip's content (the server computed ${computed})`, {
        sent_hash: input.worktree_hash,
        computed_hash: computed,
      });
    }
    const entry = chooseEntry(files.map((file) => file.path), input.entry_path);
    const imageUses = firstImageUses(files);
    const ownedImages = await this.images.ownedIds(userId, imageUses.map((use) => use.id));
    const warnings = snapshotWarnings({ files, entry, imageUses, ownedImages, largeFileBytes: SNAPSHOT_LIMITS.largeFileBytes });
    const { snapshot, created } = await this.store.save({
      userId,
      macroId,
      worktreeHash: computed,
      entryPath: entry.path,
      sizeBytes: files.reduce((sum, f) => sum + f.size, 0),
      fileCount: files.length,
      zip,
    });
    return {
      worktree_hash: snapshot.worktree_hash,
      entry_path: snapshot.entry_path,
      entry_kind: 'python',
      image_ids: imageUses.map((use) => use.id),
      warnings,
      size_bytes: snapshot.size_bytes,
      file_count: snapshot.file_count,
      created,
    };
  }
}
