// Reading the subscription as the contract defines it (app-api.md, "Subscription"): active
// with no end or a future end, or trialing with a future trial end.
import type { Subscription } from '../../api/types';

export type Standing =
  | { kind: 'ok'; title: string; detail: string; daysLeft: number | null }
  | { kind: 'ending'; title: string; detail: string; daysLeft: number }
  | { kind: 'lapsed'; title: string; detail: string; daysLeft: 0 };

const DAY = 86_400_000;
const LAPSED_DETAIL = 'Your API keys answer 402 subscription_required until the plan is active again, so scripts, the svc command line and AI clients stop. This console keeps working with your sign-in, and your keys, macros and data are kept. Ask the operator of this service to restore the plan.';

export function planStanding(subscription: Subscription, now: number): Standing {
  if (subscription.status === 'active') {
    const end = subscription.current_period_end ? Date.parse(subscription.current_period_end) : null;
    if (end === null) return { kind: 'ok', title: 'Active plan', detail: 'Your plan is active with no end date.', daysLeft: null };
    if (end <= now) return { kind: 'lapsed', title: 'Your plan period has ended', detail: LAPSED_DETAIL, daysLeft: 0 };
    return { kind: 'ok', title: 'Active plan', detail: 'Your plan is active.', daysLeft: Math.ceil((end - now) / DAY) };
  }
  if (subscription.status === 'trialing' && subscription.trial_ends_at) {
    const end = Date.parse(subscription.trial_ends_at);
    if (end <= now) return { kind: 'lapsed', title: 'Your trial has ended', detail: LAPSED_DETAIL, daysLeft: 0 };
    const daysLeft = Math.ceil((end - now) / DAY);
    if (daysLeft <= 3) {
      return { kind: 'ending', title: `Your trial ends in ${daysLeft} day${daysLeft === 1 ? '' : 's'}`, detail: 'After that, your API keys answer 402 until a plan is active; this console keeps working. Ask the operator of this service for a plan.', daysLeft };
    }
    return { kind: 'ok', title: 'Free trial', detail: `${daysLeft} days left in your 14-day trial.`, daysLeft };
  }
  return { kind: 'lapsed', title: 'No active plan', detail: LAPSED_DETAIL, daysLeft: 0 };
}
