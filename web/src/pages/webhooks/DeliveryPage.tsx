// One delivery: its state and attempts, the exact payload sent, the receiver's answer, and
// sending it again.
import { Alert, Anchor, Button, Card, Code, DataList, Grid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { exactTime } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { TEXT } from '../../theme';
import { getDelivery, listEndpoints, redeliver as sendAgain } from './webhooks-api';

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

export function DeliveryPage({ params }: { params: Record<string, string> }) {
  return (
    <Delivery id={Number(params.id)} />
  );
}

function Delivery({ id }: { id: number }) {
  const delivery = useAsync(() => getDelivery(id), [id]);
  const endpoints = useAsync(listEndpoints, []);
  const [requeued, setRequeued] = useState(false);
  const redeliver = useAction(async () => {
    await sendAgain(id);
    setRequeued(true);
    delivery.reload();
  });
  const back = <Anchor component={Link} to="/webhooks?tab=deliveries" size="sm">← Deliveries</Anchor>;
  if (delivery.error && !delivery.data) return <>{back}<ErrorAlert error={delivery.error} title="Could not open this delivery" /></>;
  if (!delivery.data) return <Loading label="Loading the delivery…" />;
  const d = delivery.data;
  return (
    <>
      <PageHeader
        eyebrow={back}
        title={d.event_type}
        description={<>Delivery {d.id} of event <span className="mono">{d.event_id}</span></>}
        actions={<Button loading={redeliver.pending} onClick={() => void redeliver.run()} disabled={d.status === 'pending'}>Redeliver</Button>}
      />
      <ErrorAlert error={redeliver.error} title="Not queued again" />
      {requeued && <Alert color="green" variant="light" mb="md" role="status">Queued again; the worker sends it shortly.</Alert>}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card>
            <Title order={2} fz="md" mb="sm">Attempts</Title>
            <DataList labelWidth={120} size="sm">
              <DataList.Item><DataList.ItemLabel>Status</DataList.ItemLabel><DataList.ItemValue><StatusBadge value={d.status} /></DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Attempts</DataList.ItemLabel><DataList.ItemValue>{d.attempts}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Next attempt</DataList.ItemLabel><DataList.ItemValue>{d.next_attempt_at ? exactTime(d.next_attempt_at) : '—'}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Delivered</DataList.ItemLabel><DataList.ItemValue>{d.delivered_at ? exactTime(d.delivered_at) : '—'}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Last answer</DataList.ItemLabel><DataList.ItemValue>{d.last_status_code ?? '—'}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Created</DataList.ItemLabel><DataList.ItemValue>{exactTime(d.created_at)}</DataList.ItemValue></DataList.Item>
              <DataList.Item><DataList.ItemLabel>Endpoint</DataList.ItemLabel><DataList.ItemValue>
                <Anchor component={Link} to={`/webhooks?tab=deliveries&endpoint_id=${d.endpoint_id}`} size="sm" style={{ wordBreak: 'break-all' }}>
                  {endpoints.data?.find((e) => e.id === d.endpoint_id)?.url ?? `Endpoint ${d.endpoint_id}`}
                </Anchor>
              </DataList.ItemValue></DataList.Item>
            </DataList>
            {d.last_error && <Text size="sm" c={TEXT.danger} mt="md">{d.last_error}</Text>}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <Card>
              <Title order={2} fz="md" mb="xs">Payload sent</Title>
              <Code block tabIndex={0} aria-label="Payload">{pretty(d.payload)}</Code>
            </Card>
            <Card>
              <Title order={2} fz="md" mb="xs">Receiver's answer</Title>
              {d.last_response_body ? <Code block tabIndex={0} aria-label="Response body">{pretty(d.last_response_body)}</Code> : <Text size="sm" c="dimmed">No response body recorded.</Text>}
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
