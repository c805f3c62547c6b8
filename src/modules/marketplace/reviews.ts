// Reviews: one per person and listing, changed by writing it again, never by the author.
// The listing keeps the sum and count of stars, updated with each review in the same
// transaction under the listing's row lock, so the average never drifts from the reviews.
import type { Kysely, Selectable } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { lockListingRow } from '../../db/locks.js';
import type { Database, MarketplaceReviewsTable } from '../../db/schema.js';
import type { ServiceContext } from '../../core/context.js';
import { offsetOf, pageOf, pageRequest } from '../../core/paging.js';
import type { Clock } from '../../lib/clock.js';
import { accountNames } from '../accounts/index.js';
import { listingNotFound, ownListingReview } from './errors.js';
import { findVisibleListing } from './find.js';
import { presentReview } from './present.js';
import type { ReviewInput } from './schemas.js';

export class ReviewService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
  ) {}

  private selectReviews() {
    return this.db.selectFrom('marketplace_reviews as r').selectAll('r');
  }

  /** The reviews with their authors' names, from the accounts module; one whose author is gone is dropped, as the join dropped it. */
  private async presentAll(rows: Selectable<MarketplaceReviewsTable>[]) {
    const names = rows.length ? await accountNames(this.db, rows.map((row) => row.user_id)) : new Map<number, string | null>();
    return rows.flatMap((row) => (names.has(row.user_id) ? [presentReview({ ...row, author_name: names.get(row.user_id) ?? null })] : []));
  }

  async write(ctx: ServiceContext, listingId: number, input: ReviewInput) {
    const listing = await findVisibleListing(this.db, ctx.userId, listingId);
    if (listing.user_id === ctx.userId) throw ownListingReview();
    const text = input.text ?? '';
    await this.db.transaction().execute(async (trx) => {
      if (!(await lockListingRow(trx, this.dialect, listingId))) throw listingNotFound();
      const now = this.clock.now();
      const existing = await trx.selectFrom('marketplace_reviews').select(['id', 'stars']).where('listing_id', '=', listingId).where('user_id', '=', ctx.userId).executeTakeFirst();
      if (existing) {
        await trx.updateTable('marketplace_reviews').set({ stars: input.stars, text, updated_at: now }).where('id', '=', existing.id).execute();
      } else {
        await trx.insertInto('marketplace_reviews').values({ listing_id: listingId, user_id: ctx.userId, stars: input.stars, text, created_at: now, updated_at: now }).execute();
      }
      const delta = input.stars - (existing?.stars ?? 0);
      await trx
        .updateTable('marketplace_listings')
        .set((eb) => ({ rating_sum: eb('rating_sum', '+', delta), rating_count: eb('rating_count', '+', existing ? 0 : 1) }))
        .where('id', '=', listingId)
        .execute();
    });
    const row = await this.selectReviews().where('r.listing_id', '=', listingId).where('r.user_id', '=', ctx.userId).executeTakeFirstOrThrow();
    const [review] = await this.presentAll([row]);
    if (!review) throw new Error(`the author of review ${row.id} is gone`);
    return review;
  }

  /** Newest first (by last change), the id breaking ties so pages are stable. */
  async list(ctx: ServiceContext, listingId: number, query: { page?: number; page_size?: number }) {
    await findVisibleListing(this.db, ctx.userId, listingId);
    const page = pageRequest(query);
    const [{ total }, rows] = await Promise.all([
      this.db.selectFrom('marketplace_reviews').where('listing_id', '=', listingId).select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
      this.selectReviews().where('r.listing_id', '=', listingId).orderBy('r.updated_at', 'desc').orderBy('r.id', 'desc').limit(page.pageSize).offset(offsetOf(page)).execute(),
    ]);
    return pageOf(page, Number(total), await this.presentAll(rows));
  }
}
