// The plan at a glance: its state, what it means for keys, and how long is left.
import { Card, Group, Progress, Stack, Text } from '@mantine/core';
import type { Subscription } from '../../api/types';
import { StatusBadge } from '../../components/StatusBadge';
import { exactTime } from '../../components/Time';
import { planStanding } from './plan';

const TRIAL_DAYS = 14;

export function PlanCard({ subscription }: { subscription: Subscription }) {
  const standing = planStanding(subscription, Date.now());
  const trial = subscription.status === 'trialing';
  const ends = trial ? subscription.trial_ends_at : subscription.current_period_end;
  return (
    <Card>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>Plan</Text>
          <StatusBadge value={standing.kind === 'lapsed' ? 'inactive' : subscription.status} label={standing.kind === 'lapsed' ? 'Inactive' : trial ? 'Trial' : subscription.plan ?? 'Active'} />
        </Group>
        <Text fz={22} fw={650}>{standing.title}</Text>
        <Text size="sm" c="dimmed">{standing.detail}</Text>
        {trial && standing.daysLeft !== null && standing.kind !== 'lapsed' && (
          <Progress value={(standing.daysLeft / TRIAL_DAYS) * 100} color={standing.kind === 'ending' ? 'yellow' : 'indigo'} aria-label={`${standing.daysLeft} of ${TRIAL_DAYS} trial days left`} mt={4} />
        )}
        {ends && <Text size="xs" c="dimmed">{trial ? 'Trial ends' : 'Period ends'} {exactTime(ends)}</Text>}
      </Stack>
    </Card>
  );
}
