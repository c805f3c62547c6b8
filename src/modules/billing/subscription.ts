// The subscription rule of app-api.md: active with no or a future period end, or trialing
// with a future trial end. Key traffic and key creation need it.
import type { Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionsTable } from '../../db/schema.js';
import { NotFoundError } from '../../core/errors.js';
import { type Clock, DAY_MS, toIso } from '../../lib/clock.js';

/** What the subscription rule reads: the row without its key and bookkeeping. */
export type SubscriptionRow = Omit<Selectable<SubscriptionsTable>, 'user_id' | 'updated_at'>;

export const TRIAL_DAYS = 14;

export function isSubscriptionActive(sub: SubscriptionRow | null | undefined, now: number): boolean {
  if (!sub) return false;
  if (sub.status === 'active') return sub.current_period_end === null || sub.current_period_end > now;
  if (sub.status === 'trialing') return sub.trial_ends_at !== null && sub.trial_ends_at > now;
  return false;
}

export function presentSubscription(sub: SubscriptionRow) {
  return {
    status: sub.status,
    plan: sub.plan,
    trial_ends_at: toIso(sub.trial_ends_at),
    current_period_end: toIso(sub.current_period_end),
  };
}

export async function loadSubscription(db: Kysely<Database>, userId: number): Promise<SubscriptionRow> {
  const row = await db
    .selectFrom('subscriptions')
    .select(['status', 'plan', 'trial_ends_at', 'current_period_end'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('No such user.');
  return row;
}

/** A new account's subscription: a trial of TRIAL_DAYS, written in the sign-up's transaction. */
export async function openTrial(db: Kysely<Database>, userId: number, now: number): Promise<SubscriptionRow> {
  const subscription = { status: 'trialing' as const, plan: null, trial_ends_at: now + TRIAL_DAYS * DAY_MS, current_period_end: null };
  await db.insertInto('subscriptions').values({ user_id: userId, ...subscription, updated_at: now }).execute();
  return subscription;
}

/** The operator's change; fields left undefined keep their value. */
export async function setSubscription(db: Kysely<Database>, clock: Clock, userId: number, patch: Partial<SubscriptionRow>): Promise<void> {
  const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  const result = await db
    .updateTable('subscriptions')
    .set({ ...changes, updated_at: clock.now() })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new NotFoundError('No user with this id.');
}
