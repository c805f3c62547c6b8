// The operator's operations: find users, set a subscription. Payment collection is out of
// scope; this is how a plan is granted or ended.
import type { Kysely } from 'kysely';
import type { CallOrigin } from '../../core/context.js';
import type { IdInput } from '../../core/schema.js';
import type { Database } from '../../db/schema.js';
import { findAccounts } from '../accounts/index.js';
import type { SubscriptionService } from '../billing/index.js';
import type { SubscriptionPatchInput } from './schemas.js';

/** At most this many users per answer; the operator narrows with an email. */
const USERS_LISTED = 200;

const millis = (value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : Date.parse(value));

export class AdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly subscriptions: SubscriptionService,
  ) {}

  /** Users by id, or the one with this email (matched as sign-up stores it). */
  async findUsers(_origin: CallOrigin, input: { email?: string }) {
    return { items: await findAccounts(this.db, { email: input.email, limit: USERS_LISTED }) };
  }

  async setSubscription(origin: CallOrigin, { id, status, plan, trial_ends_at, current_period_end }: IdInput & SubscriptionPatchInput) {
    return this.subscriptions.set(origin, { userId: id, status, plan, trial_ends_at: millis(trial_ends_at), current_period_end: millis(current_period_end) });
  }
}
