// The delivery log: every attempt to send an event to an endpoint, filtered by endpoint and
// status, refreshed every few seconds while some are still pending.
import { Anchor, Button, Group, Text } from '@mantine/core';
import { useEffect } from 'react';
import type { WebhookDelivery } from '../../api/types';
import { Link, useLocation } from '../../app/router';
import { FilterBar } from '../../components/FilterBar';
import { WebhookIcon } from '../../components/icons';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { TEXT } from '../../theme';
import { listDeliveries, listEndpoints } from './webhooks-api';

const PAGE_SIZE = 25;
const STATUSES = ['pending', 'succeeded', 'failed', 'exhausted'] as const;
const REFRESH_MS = 3000;

const columns = (urlOf: (id: number) => string): Column<WebhookDelivery>[] => [
  { header: 'Status', cell: (d) => <StatusBadge value={d.status} /> },
  { header: 'Event', cell: (d) => <Anchor component={Link} to={`/webhooks/deliveries/${d.id}`} size="sm" fw={600}>{d.event_type}</Anchor> },
  { header: 'Endpoint', maxWidth: 280, cell: (d) => <Text size="sm" truncate="end" className="mono">{urlOf(d.endpoint_id)}</Text> },
  { header: 'Attempts', cell: (d) => <><Text size="sm">{d.attempts}</Text>{d.next_attempt_at && <Text size="xs" c="dimmed">next <Time value={d.next_attempt_at} /></Text>}</> },
  { header: 'Response', cell: (d) => <><Text size="sm" className="mono">{d.last_status_code ?? '—'}</Text>{d.last_error && <Text size="xs" c={TEXT.danger} truncate="end" maw={220}>{d.last_error}</Text>}</> },
  { header: 'Created', cell: (d) => <Text size="sm"><Time value={d.created_at} /></Text> },
];

export function DeliveriesTab() {
  const { query } = useLocation();
  const page = pageFrom(query);
  const endpointId = query.get('endpoint_id');
  const status = STATUSES.find((s) => s === query.get('status'));
  const endpoints = useAsync(listEndpoints, []);
  const deliveries = useAsync(
    () => listDeliveries({ page, page_size: PAGE_SIZE, ...(endpointId ? { endpoint_id: Number(endpointId) } : {}), ...(status ? { status } : {}) }),
    [page, endpointId, status],
  );
  const pending = (deliveries.data?.rows ?? []).some((d) => d.status === 'pending');
  const reload = deliveries.reload;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [pending, reload]);
  const filtered = Boolean(endpointId || status);
  const urlOf = (id: number) => endpoints.data?.find((e) => e.id === id)?.url ?? `Endpoint ${id} (deleted)`;
  return (
    <ResourceTable
      noun="delivery"
      nouns="deliveries"
      list={deliveries}
      columns={columns(urlOf)}
      rowKey={(d) => d.id}
      minWidth={900}
      toolbar={
        <>
          <FilterBar
            label="Filter deliveries"
            filtered={filtered}
            fields={[
              { kind: 'select', param: 'endpoint_id', label: 'Endpoint', placeholder: 'Any endpoint', width: 300, data: (endpoints.data ?? []).map((e) => ({ value: String(e.id), label: e.url })) },
              { kind: 'select', param: 'status', label: 'Status', placeholder: 'Any status', width: 160, data: STATUSES.map((s) => ({ value: s, label: s })) },
            ]}
          />
          <Group gap="sm">
            {pending && <Text size="sm" c="dimmed" role="status">Refreshing while deliveries are pending…</Text>}
            <Button variant="default" size="sm" onClick={reload} loading={deliveries.loading}>Refresh</Button>
          </Group>
        </>
      }
      filtered={filtered}
      empty={{ icon: <WebhookIcon size={22} />, title: 'No deliveries yet', body: 'Send a test event to an endpoint, and its delivery shows up here.' }}
    />
  );
}
