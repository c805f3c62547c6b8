// A banner when the plan stops key traffic (inactive) or is about to (trial ending soon).
import { Alert } from '@mantine/core';
import { useSession } from '../state/session';
import { planStanding } from '../pages/account/plan';

export function PlanBanner() {
  const { subscription } = useSession();
  if (!subscription) return null;
  const standing = planStanding(subscription, Date.now());
  if (standing.kind === 'ok') return null;
  return (
    <Alert color={standing.kind === 'lapsed' ? 'red' : 'yellow'} variant="light" radius={0} px={40} role="status" title={standing.title}>
      {standing.detail}
    </Alert>
  );
}
