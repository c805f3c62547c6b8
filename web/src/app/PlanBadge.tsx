// The plan's state in the header, on every page: the console works with the session whatever
// the plan, so this is where a person sees that their API keys have stopped (402).
import { Anchor } from '@mantine/core';
import { StatusBadge } from '../components/StatusBadge';
import { planStanding } from '../pages/account/plan';
import { useSession } from '../state/session';
import { Link } from './router';

export function PlanBadge() {
  const { subscription } = useSession();
  if (!subscription) return null;
  const standing = planStanding(subscription, Date.now());
  const label =
    standing.kind === 'lapsed'
      ? 'Plan inactive: keys stopped'
      : subscription.status === 'trialing'
        ? `Trial: ${standing.daysLeft} day${standing.daysLeft === 1 ? '' : 's'} left`
        : `Plan: ${subscription.plan ?? 'active'}`;
  return (
    <Anchor component={Link} to="/account" underline="never" aria-label={`${label}. Plan and account`}>
      <StatusBadge value={standing.kind === 'lapsed' ? 'inactive' : standing.kind === 'ending' ? 'pending' : subscription.status} label={label} />
    </Anchor>
  );
}
