// The signed-in person and their plan. Plans are set by the operator (payment collection is
// outside this service), so this page explains the state rather than offering checkout.
// The plan is read afresh from the billing route here; the header badge uses the one
// /api/auth/me answered at sign-in, and this page refreshes it too.
import { Button, Card, DataList, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { navigate } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { exactTime } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { useSession, useUser } from '../../state/session';
import { CreditsCard } from '../authoring/CreditsCard';
import { readCredits } from '../authoring/authoring-api';
import { PlanCard } from './PlanCard';
import { subscription as readSubscription } from './account-api';

export function AccountPage() {
  const user = useUser();
  const { subscription: atSignIn, signOut, refresh } = useSession();
  const billing = useAsync(readSubscription, []);
  const credits = useAsync(readCredits, []);
  const subscription = billing.data ?? atSignIn;
  // When the operator changed the plan since sign-in, the header badge follows.
  useEffect(() => {
    if (billing.data && atSignIn && (billing.data.status !== atSignIn.status || billing.data.plan !== atSignIn.plan)) void refresh();
  }, [billing.data, atSignIn, refresh]);
  const [leaving, setLeaving] = useState(false);
  const leave = async () => {
    setLeaving(true);
    try {
      await signOut();
      navigate('/signin', { replace: true });
    } finally {
      setLeaving(false);
    }
  };
  return (
    <>
      <PageHeader title="Plan and account" description="Your sign-in details and the plan that lets your API keys call the service." />
      <ErrorAlert error={billing.error} title="Could not read the plan" />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {subscription && <PlanCard subscription={subscription} />}
        <Card>
          <Title order={2} fz="md" mb="sm">Account</Title>
          <DataList labelWidth={120}>
            <DataList.Item><DataList.ItemLabel>Name</DataList.ItemLabel><DataList.ItemValue>{user.name ?? '—'}</DataList.ItemValue></DataList.Item>
            <DataList.Item><DataList.ItemLabel>Email</DataList.ItemLabel><DataList.ItemValue>{user.email}</DataList.ItemValue></DataList.Item>
            <DataList.Item><DataList.ItemLabel>User id</DataList.ItemLabel><DataList.ItemValue>{user.id}</DataList.ItemValue></DataList.Item>
            <DataList.Item><DataList.ItemLabel>Member since</DataList.ItemLabel><DataList.ItemValue>{exactTime(user.created_at)}</DataList.ItemValue></DataList.Item>
          </DataList>
        </Card>
        {subscription && (
          <Card>
            <Title order={2} fz="md" mb="sm">Subscription details</Title>
            <DataList labelWidth={160}>
              <DataList.Item><DataList.ItemLabel>Status</DataList.ItemLabel><DataList.ItemValue>{subscription.status}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Plan</DataList.ItemLabel><DataList.ItemValue>{subscription.plan ?? '—'}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Trial ends</DataList.ItemLabel><DataList.ItemValue>{subscription.trial_ends_at ? exactTime(subscription.trial_ends_at) : '—'}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Current period ends</DataList.ItemLabel><DataList.ItemValue>{subscription.current_period_end ? exactTime(subscription.current_period_end) : '—'}</DataList.ItemValue></DataList.Item>
            </DataList>
            <Text size="sm" c="dimmed" mt="md">Plans are set by the operator of this service; there is no checkout here.</Text>
          </Card>
        )}
        {credits.data && <CreditsCard credits={credits.data} />}
        <Card>
          <Title order={2} fz="md" mb="xs">Sign out</Title>
          <Stack gap="sm" align="flex-start">
            <Text size="sm" c="dimmed">Ends this session at once. Your API keys keep working.</Text>
            <Button color="red" variant="light" loading={leaving} onClick={() => void leave()}>Sign out</Button>
          </Stack>
        </Card>
      </SimpleGrid>
    </>
  );
}
