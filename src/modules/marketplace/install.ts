// Installing makes a new macro in the installer's account from one frozen version: a code
// copy gets a snapshot naming the version's zip (no bytes copied), a block copy the program;
// a code copy's `Default` profile holds the version's arguments. Each install is a new
// macro. A copy stays on its version until its owner moves it (`moveCopy`).
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, MarketplaceVersionsTable } from '../../db/schema.js';
import type { ServiceContext } from '../../core/context.js';
import type { Clock } from '../../lib/clock.js';
import { adoptSnapshot } from '../code-sync/index.js';
import type { ImageLibrary } from '../images/index.js';
import { frozenImages } from './frozen-images.js';
import { findOwnedMacro, insertInstalledMacro, presentMacro, setInstalledVersion } from '../macros/index.js';
import { createDefaultProfile } from '../profiles/index.js';
import { listingHidden, notAnInstalledCopy, versionNotFound } from './errors.js';
import { findVisibleListing } from './find.js';
import type { ListingRow } from './present.js';

type VersionRow = Selectable<MarketplaceVersionsTable>;

async function findVersion(db: Kysely<Database> | Transaction<Database>, listing: ListingRow, version: number | undefined): Promise<VersionRow> {
  const wanted = version ?? listing.latest_version;
  const row = await db.selectFrom('marketplace_versions').selectAll().where('listing_id', '=', listing.id).where('version', '=', wanted).executeTakeFirst();
  if (!row) throw versionNotFound(wanted);
  return row;
}

/** The version's code as the installer's macro's current snapshot. */
async function adoptCode(trx: Transaction<Database>, userId: number, macroId: number, version: VersionRow, now: number) {
  if (version.zip_sha256 === null || version.worktree_hash === null || version.entry_path === null) return;
  await adoptSnapshot(
    trx,
    userId,
    macroId,
    { worktreeHash: version.worktree_hash, entryPath: version.entry_path, sizeBytes: version.size_bytes ?? 0, fileCount: version.file_count ?? 0, zipSha256: version.zip_sha256 },
    now,
  );
}

export class InstallService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly images: Pick<ImageLibrary, 'adopt' | 'ownedIds'>,
  ) {}

  /**
   * Copies the images the version references into the installer's library under the same
   * ids, from the listing's frozen copies (made when the version was published, so the
   * author deleting a picture since changes nothing). Done before the macro is written: a
   * copy is idempotent (the same ids name the same pictures), so a failed install leaves
   * nothing wrong behind.
   */
  private async copyImages(ctx: ServiceContext, listing: ListingRow, version: VersionRow) {
    const ids = JSON.parse(version.image_ids) as string[];
    if (ids.length === 0) return;
    const held = await this.images.ownedIds(ctx.userId, ids);
    const missing = ids.filter((id) => !held.has(id));
    if (missing.length > 0) await this.images.adopt(ctx, await frozenImages(this.db, listing.id, missing));
  }

  async install(ctx: ServiceContext, listingId: number, version: number | undefined) {
    const listing = await findVisibleListing(this.db, ctx.userId, listingId);
    if (listing.hidden_at !== null) throw listingHidden();
    const frozen = await findVersion(this.db, listing, version);
    await this.copyImages(ctx, listing, frozen);
    const macro = await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const row = await insertInstalledMacro(trx, {
        userId: ctx.userId,
        name: listing.title,
        kind: listing.kind,
        description: listing.summary,
        blocks: listing.kind === 'block' ? frozen.blocks : null,
        listingId: listing.id,
        version: frozen.version,
        now,
      });
      if (listing.kind === 'python') {
        await adoptCode(trx, ctx.userId, row.id, frozen, now);
        await createDefaultProfile(trx, ctx.userId, row.id, JSON.parse(frozen.args) as Record<string, unknown>, now);
      }
      // The author trying their own listing does not count as an install.
      if (listing.user_id !== ctx.userId) {
        await trx.updateTable('marketplace_listings').set((eb) => ({ installs: eb('installs', '+', 1) })).where('id', '=', listing.id).execute();
      }
      return row;
    });
    return presentMacro(macro);
  }

  /**
   * Moves the caller's installed copy to another version of its listing (default the
   * latest): its code or program becomes that version's. Its profiles are the owner's and
   * stay as they are.
   */
  async moveCopy(ctx: ServiceContext, macroId: number, version: number | undefined) {
    const macro = await findOwnedMacro(this.db, ctx.userId, macroId).catch(() => undefined);
    if (!macro || macro.installed_listing_id === null) throw notAnInstalledCopy();
    const listing = await findVisibleListing(this.db, ctx.userId, macro.installed_listing_id);
    if (listing.hidden_at !== null) throw listingHidden();
    const frozen = await findVersion(this.db, listing, version);
    await this.copyImages(ctx, listing, frozen);
    const row = await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      if (listing.kind === 'python') await adoptCode(trx, ctx.userId, macroId, frozen, now);
      return setInstalledVersion(trx, ctx.userId, macroId, frozen.version, listing.kind === 'block' ? frozen.blocks : null, now);
    });
    return presentMacro(row);
  }
}
