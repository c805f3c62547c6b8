// The account's AI credits for this calendar month (UTC): what the authoring agent has spent
// and what is left. One credit is 1,000 tokens as the model endpoint reports them.
import { Card, Group, Progress, Stack, Text } from '@mantine/core';
import { exactTime } from '../../components/Time';
import type { Credits } from './authoring-api';

export function CreditsCard({ credits }: { credits: Credits }) {
  const left = Math.max(0, credits.limit - credits.used);
  const share = credits.limit > 0 ? Math.min(100, (credits.used / credits.limit) * 100) : 100;
  return (
    <Card>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>AI credits this month</Text>
          <Text size="sm" c="dimmed">1 credit = 1,000 tokens</Text>
        </Group>
        <Text fz={22} fw={650}>{left.toLocaleString('en')} of {credits.limit.toLocaleString('en')} left</Text>
        <Progress value={share} color={left === 0 ? 'red' : share > 80 ? 'yellow' : 'indigo'} aria-label={`${credits.used} of ${credits.limit} AI credits used`} />
        <Text size="xs" c="dimmed">{credits.used.toLocaleString('en')} used; renews {exactTime(credits.period_end)}</Text>
      </Stack>
    </Card>
  );
}
