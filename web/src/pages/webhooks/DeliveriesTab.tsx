// The delivery log: every attempt to send an event to an endpoint, filtered by endpoint and
// status, refreshed every few seconds while some are still pending.
import { Anchor, Button, Card, Group, Select, Table, Text } from '@mantine/core';
import { useEffect } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { Link, setQuery, useLocation } from '../../app/router';
import { Empty } from '../../components/Empty';
import { ErrorAlert } from '../../components/ErrorAlert';
import { WebhookIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { Pager, pageFrom } from '../../components/Pager';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { TEXT } from '../../theme';

const PAGE_SIZE = 25;
const STATUSES = ['pending', 'succeeded', 'failed', 'exhausted'] as const;
const REFRESH_MS = 3000;

export function DeliveriesTab() {
  const { query } = useLocation();
  const page = pageFrom(query);
  const endpointId = query.get('endpoint_id');
  const status = STATUSES.find((s) => s === query.get('status'));
  const endpoints = useAsync(() => unwrap(api.GET('/api/webhooks')), []);
  const deliveries = useAsync(
    () => unwrap(api.GET('/api/webhooks/deliveries', { params: { query: { page, page_size: PAGE_SIZE, ...(endpointId ? { endpoint_id: Number(endpointId) } : {}), ...(status ? { status } : {}) } } })),
    [page, endpointId, status],
  );
  const rows = deliveries.data?.rows ?? [];
  const pending = rows.some((d) => d.status === 'pending');
  const reload = deliveries.reload;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [pending, reload]);
  const urlOf = (id: number) => endpoints.data?.items.find((e) => e.id === id)?.url ?? `Endpoint ${id} (deleted)`;
  return (
    <>
      <ErrorAlert error={deliveries.error} title="Could not load deliveries" />
      <Card p={0}>
        <Group px="lg" py="sm" gap="sm" justify="space-between" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Group gap="sm">
            <Select aria-label="Endpoint" placeholder="Any endpoint" clearable w={300} value={endpointId} onChange={(v) => setQuery({ endpoint_id: v, page: undefined })}
              data={(endpoints.data?.items ?? []).map((e) => ({ value: String(e.id), label: e.url }))} />
            <Select aria-label="Status" placeholder="Any status" clearable w={160} value={status ?? null} onChange={(v) => setQuery({ status: v, page: undefined })} data={STATUSES.map((s) => ({ value: s, label: s }))} />
          </Group>
          <Group gap="sm">
            {pending && <Text size="sm" c="dimmed" role="status">Refreshing while deliveries are pending…</Text>}
            <Button variant="default" size="sm" onClick={reload} loading={deliveries.loading}>Refresh</Button>
          </Group>
        </Group>
        {deliveries.loading && !deliveries.data ? (
          <Loading label="Loading deliveries…" />
        ) : rows.length === 0 ? (
          <Empty icon={<WebhookIcon size={22} />} title={endpointId || status ? 'No deliveries match' : 'No deliveries yet'}>
            {endpointId || status ? 'Change or clear the filters above.' : 'Send a test event to an endpoint, and its delivery shows up here.'}
          </Empty>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Endpoint</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Response</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td><StatusBadge value={d.status} /></Table.Td>
                    <Table.Td><Anchor component={Link} to={`/webhooks/deliveries/${d.id}`} size="sm" fw={600}>{d.event_type}</Anchor></Table.Td>
                    <Table.Td maw={280}><Text size="sm" truncate="end" className="mono">{urlOf(d.endpoint_id)}</Text></Table.Td>
                    <Table.Td><Text size="sm">{d.attempts}</Text>{d.next_attempt_at && <Text size="xs" c="dimmed">next <Time value={d.next_attempt_at} /></Text>}</Table.Td>
                    <Table.Td><Text size="sm" className="mono">{d.last_status_code ?? '—'}</Text>{d.last_error && <Text size="xs" c={TEXT.danger} truncate="end" maw={220}>{d.last_error}</Text>}</Table.Td>
                    <Table.Td><Text size="sm"><Time value={d.created_at} /></Text></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {deliveries.data && deliveries.data.total_rows > 0 && <Pager noun="deliveries" info={deliveries.data} onPage={(p) => setQuery({ page: p })} />}
    </>
  );
}
