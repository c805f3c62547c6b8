// The operator's side: every listing with its install count (hidden or not, with the
// author's email, which only the operator sees), and hiding a listing. A hidden listing is
// gone for everyone but its author, and nobody can install it.
import type { Kysely, Selectable } from 'kysely';
import type { Database, MarketplaceListingsTable } from '../../db/schema.js';
import { offsetOf, pageOf, pageRequest } from '../../core/paging.js';
import type { Clock } from '../../lib/clock.js';
import { accountContacts } from '../accounts/index.js';
import { listingNotFound } from './errors.js';
import { presentListing } from './present.js';
import type { AdminListingQueryInput, HideInput } from './schemas.js';

export class MarketplaceAdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  private select() {
    return this.db.selectFrom('marketplace_listings as l').selectAll('l');
  }

  /** The listings as the operator sees them, with their authors' names and emails from the accounts module; one whose author is gone is dropped, as the join dropped it. */
  private async presentAll(rows: Selectable<MarketplaceListingsTable>[]) {
    const authors = rows.length ? await accountContacts(this.db, rows.map((row) => row.user_id)) : new Map<number, { name: string | null; email: string }>();
    return rows.flatMap((row) => {
      const author = authors.get(row.user_id);
      return author ? [{ ...presentListing(row, author.name), author_email: author.email, hidden_reason: row.hidden_reason }] : [];
    });
  }

  /** Most installed first, the id breaking ties. */
  async list(input: AdminListingQueryInput) {
    const page = pageRequest(input);
    let base = this.db.selectFrom('marketplace_listings as l');
    let rows = this.select();
    if (input.hidden !== undefined) {
      base = base.where('l.hidden_at', input.hidden ? 'is not' : 'is', null);
      rows = rows.where('l.hidden_at', input.hidden ? 'is not' : 'is', null);
    }
    const [{ total }, found] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
      rows.orderBy('l.installs', 'desc').orderBy('l.id', 'desc').limit(page.pageSize).offset(offsetOf(page)).execute(),
    ]);
    return pageOf(page, Number(total), await this.presentAll(found));
  }

  async hide(listingId: number, input: HideInput) {
    const now = this.clock.now();
    const result = await this.db
      .updateTable('marketplace_listings')
      .set(input.hidden ? { hidden_at: now, hidden_reason: input.reason ?? null, updated_at: now } : { hidden_at: null, hidden_reason: null, updated_at: now })
      .where('id', '=', listingId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw listingNotFound();
    const row = await this.select().where('l.id', '=', listingId).executeTakeFirstOrThrow();
    const [listing] = await this.presentAll([row]);
    if (!listing) throw new Error(`the author of listing ${row.id} is gone`);
    return listing;
  }
}
