// Publishing: a listing with version 1, new versions frozen from the author's macro, changes
// to the listing's text and visibility, and deletion. Only the author changes a listing;
// someone else's answers 404. A version, once written, never changes.
import type { Kysely, Transaction } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { lockListingRow } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import type { ServiceContext } from '../../core/context.js';
import type { IdInput } from '../../core/schema.js';
import type { Clock } from '../../lib/clock.js';
import { dropUnusedBlobs } from '../code-sync/index.js';
import { listingNotFound, notPublishable, sourceMacroGone, versionUnchanged } from './errors.js';
import { findOwnListing, findVisibleListing } from './find.js';
import { type FrozenContent, freezeMacro } from './freeze.js';
import { freezeImages } from './frozen-images.js';
import { presentOneListing, presentVersion } from './present.js';
import type { CreateListingInput, NewVersionInput, UpdateListingInput } from './schemas.js';
import { trustFigures } from './trust.js';

async function insertVersion(trx: Transaction<Database>, authorId: number, listingId: number, version: number, notes: string | null, content: FrozenContent, now: number) {
  await trx
    .insertInto('marketplace_versions')
    .values({
      listing_id: listingId,
      version,
      notes,
      worktree_hash: content.worktreeHash,
      entry_path: content.entryPath,
      size_bytes: content.sizeBytes,
      file_count: content.fileCount,
      zip_sha256: content.zipSha256,
      blocks: content.blocks,
      bundle_sha: content.bundleSha,
      args: content.args,
      image_ids: JSON.stringify(content.imageIds),
      published_at: now,
    })
    .execute();
  // The pictures travel frozen with the version, so an install finds its templates whatever
  // the author's library holds later. A reference to a picture the library does not have
  // would install broken: refused, and the transaction writes nothing.
  const held = await freezeImages(trx, listingId, authorId, content.imageIds, now);
  const missing = content.imageIds.filter((imageId) => !held.has(imageId));
  if (missing.length > 0) {
    throw notPublishable(
      `Nothing was published: the ${content.kind === 'block' ? 'program' : 'code'} references ${missing.length === 1 ? 'an image' : 'images'} your image library does not have (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}). Upload ${missing.length === 1 ? 'it' : 'them'} again and use the new id, or remove the reference.`,
    );
  }
}

async function writeTags(trx: Transaction<Database>, listingId: number, tags: readonly string[]) {
  await trx.deleteFrom('marketplace_listing_tags').where('listing_id', '=', listingId).execute();
  if (tags.length > 0) await trx.insertInto('marketplace_listing_tags').values(tags.map((tag) => ({ listing_id: listingId, tag }))).execute();
}

export class ListingService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
  ) {}

  /** Publishes the caller's macro as a new listing with version 1. */
  async publish(ctx: ServiceContext, input: CreateListingInput) {
    // Read and checked (runnable, no secrets) before anything is written.
    const content = await freezeMacro(this.db, ctx.userId, input.macro_id);
    const tags = input.tags ?? [];
    const id = await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const row = await trx
        .insertInto('marketplace_listings')
        .values({
          user_id: ctx.userId,
          macro_id: input.macro_id,
          kind: content.kind,
          title: input.title.trim(),
          summary: input.summary.trim(),
          description: input.description ?? '',
          tags: JSON.stringify(tags),
          tags_text: tags.join(' '),
          visible: 1,
          hidden_at: null,
          hidden_reason: null,
          latest_version: 1,
          published_at: now,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeTags(trx, row.id, tags);
      await insertVersion(trx, ctx.userId, row.id, 1, input.notes ?? null, content, now);
      return row.id;
    });
    return this.get(ctx, { id });
  }

  /** Freezes the macro's current code or program as the next version (author only). */
  async newVersion(ctx: ServiceContext, { id, notes }: IdInput & NewVersionInput) {
    const listing = await findOwnListing(this.db, ctx.userId, id);
    if (listing.macro_id === null) throw sourceMacroGone();
    const content = await freezeMacro(this.db, ctx.userId, listing.macro_id);
    await this.db.transaction().execute(async (trx) => {
      const locked = await lockListingRow(trx, this.dialect, id);
      if (!locked || locked.user_id !== ctx.userId) throw listingNotFound();
      const latest = await trx.selectFrom('marketplace_versions').selectAll().where('listing_id', '=', id).where('version', '=', locked.latest_version).executeTakeFirstOrThrow();
      const same = latest.args === content.args && (content.kind === 'python' ? latest.worktree_hash === content.worktreeHash && latest.entry_path === content.entryPath : latest.bundle_sha === content.bundleSha);
      if (same) throw versionUnchanged();
      const now = this.clock.now();
      const version = locked.latest_version + 1;
      await insertVersion(trx, ctx.userId, id, version, notes ?? null, content, now);
      await trx.updateTable('marketplace_listings').set({ latest_version: version, published_at: now, updated_at: now }).where('id', '=', id).execute();
    });
    return this.get(ctx, { id });
  }

  async update(ctx: ServiceContext, { id, ...input }: IdInput & UpdateListingInput) {
    await findOwnListing(this.db, ctx.userId, id);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('marketplace_listings')
        .set({
          ...(input.title !== undefined ? { title: input.title.trim() } : {}),
          ...(input.summary !== undefined ? { summary: input.summary.trim() } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.tags !== undefined ? { tags: JSON.stringify(input.tags), tags_text: input.tags.join(' ') } : {}),
          ...(input.visible !== undefined ? { visible: input.visible ? 1 : 0 } : {}),
          updated_at: this.clock.now(),
        })
        .where('id', '=', id)
        .where('user_id', '=', ctx.userId)
        .execute();
      if (input.tags !== undefined) await writeTags(trx, id, input.tags);
    });
    return presentOneListing(this.db, await findOwnListing(this.db, ctx.userId, id));
  }

  /** Deletes the listing, its versions and reviews; installed copies stay with their owners, and so do their zips. */
  async remove(ctx: ServiceContext, { id }: IdInput): Promise<void> {
    await findOwnListing(this.db, ctx.userId, id);
    await this.db.transaction().execute(async (trx) => {
      const blobs = await trx.selectFrom('marketplace_versions').select('zip_sha256').where('listing_id', '=', id).execute();
      await trx.deleteFrom('marketplace_listings').where('id', '=', id).where('user_id', '=', ctx.userId).execute();
      await dropUnusedBlobs(trx, blobs.flatMap((row) => (row.zip_sha256 === null ? [] : [row.zip_sha256])));
    });
  }

  /** The listing with its description, versions (newest first) and trust figures. */
  async get(ctx: ServiceContext, { id }: IdInput) {
    const row = await findVisibleListing(this.db, ctx.userId, id);
    const [listing, versions, trust] = await Promise.all([
      presentOneListing(this.db, row),
      this.db.selectFrom('marketplace_versions').selectAll().where('listing_id', '=', id).orderBy('version', 'desc').execute(),
      trustFigures(this.db, id, this.clock.now()),
    ]);
    return { ...listing, description: row.description, versions: versions.map(presentVersion), trust };
  }
}
