// AI credits (decisions.md §13): one credit per 1,000 tokens, charged per model call as it
// returns, against an allowance per account and calendar month (UTC). The month's `used` is
// the sum of the charges made in it, so nothing needs resetting when a month turns.
import type { Kysely, Transaction } from 'kysely';
import { NotFoundError } from '../../core/errors.js';
import type { Database } from '../../db/schema.js';
import { type Clock, toIso } from '../../lib/clock.js';
import { accountExists } from '../accounts/index.js';
import { CreditsExhaustedError } from './errors.js';
import type { CreditsValue } from './schemas.js';

export const TOKENS_PER_CREDIT = 1000;

/** Credits for a running total of tokens: divided by 1,000 and rounded up. */
export const creditsFor = (tokens: number) => Math.ceil(tokens / TOKENS_PER_CREDIT);

/** The calendar month (UTC) holding `now`: its first instant and the next month's. */
export function monthOf(now: number): { start: number; end: number } {
  const d = new Date(now);
  return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

export class CreditLedger {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** AUTHOR_CREDITS_PER_MONTH: the allowance of an account the operator has not set. */
    private readonly defaultLimit: number,
  ) {}

  async limitOf(db: Kysely<Database>, userId: number): Promise<number> {
    const row = await db.selectFrom('credit_allowances').select('monthly_limit').where('user_id', '=', userId).executeTakeFirst();
    return row?.monthly_limit ?? this.defaultLimit;
  }

  /** The account's month as `GET /api/billing/credits` answers it. */
  async credits(userId: number, db: Kysely<Database> = this.db): Promise<CreditsValue> {
    const { start, end } = monthOf(this.clock.now());
    const [limit, used] = await Promise.all([this.limitOf(db, userId), this.usedBetween(db, userId, start, end)]);
    return { period_start: toIso(start), period_end: toIso(end), limit, used };
  }

  private async usedBetween(db: Kysely<Database>, userId: number, start: number, end: number): Promise<number> {
    const row = await db
      .selectFrom('credit_charges')
      .select((eb) => eb.fn.sum<number | string | null>('credits').as('used'))
      .where('user_id', '=', userId)
      .where('at', '>=', start)
      .where('at', '<', end)
      .executeTakeFirst();
    return Number(row?.used ?? 0);
  }

  /** 402 `credits_exhausted` when the month's allowance is used up (`used ≥ limit`). */
  async ensureAvailable(userId: number): Promise<void> {
    const credits = await this.credits(userId);
    if (credits.used >= credits.limit) throw new CreditsExhaustedError(credits.limit, credits.period_end);
  }

  /**
   * Charges what a model call added: the session's credits for its new token total less
   * what it was already charged. Runs inside the caller's transaction, with the session's
   * own update, so a charge and the session's `credits_used` never disagree.
   */
  async charge(trx: Transaction<Database>, charge: { userId: number; sessionId: number; tokensBefore: number; tokensAfter: number }): Promise<number> {
    const credits = creditsFor(charge.tokensAfter) - creditsFor(charge.tokensBefore);
    const tokens = charge.tokensAfter - charge.tokensBefore;
    if (tokens > 0) {
      await trx.insertInto('credit_charges').values({ user_id: charge.userId, session_id: charge.sessionId, credits, tokens, at: this.clock.now() }).execute();
    }
    return credits;
  }

  /** The operator's `PUT /admin/users/{id}/credits`: a whole number, or null for the default. */
  async setAllowance(userId: number, limit: number | null): Promise<CreditsValue> {
    if (!(await accountExists(this.db, userId))) throw new NotFoundError('No user with this id.');
    if (limit === null) {
      await this.db.deleteFrom('credit_allowances').where('user_id', '=', userId).execute();
    } else {
      const now = this.clock.now();
      await this.db
        .insertInto('credit_allowances')
        .values({ user_id: userId, monthly_limit: limit, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ monthly_limit: limit, updated_at: now }))
        .execute();
    }
    return this.credits(userId);
  }
}
