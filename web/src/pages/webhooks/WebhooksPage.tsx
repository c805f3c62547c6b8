// Webhooks: endpoints and their delivery log, and sending a custom event.
import { Tabs } from '@mantine/core';
import { setQuery, useLocation } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { CustomEventCard } from './CustomEventCard';
import { DeliveriesTab } from './DeliveriesTab';
import { EndpointsTab } from './EndpointsTab';

const TABS = ['endpoints', 'deliveries', 'custom'] as const;

export function WebhooksPage() {
  const { query } = useLocation();
  const tab = TABS.find((t) => t === query.get('tab')) ?? 'endpoints';
  return (
    <>
      <PageHeader title="Webhooks" description="Signed HTTPS POSTs to your endpoints when runs start, end or fail, and for your custom events. Every attempt is logged and can be sent again." />
      <Tabs value={tab} onChange={(v) => setQuery({ tab: v === 'endpoints' ? undefined : v, page: undefined, endpoint_id: undefined, status: undefined })} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="endpoints">Endpoints</Tabs.Tab>
          <Tabs.Tab value="deliveries">Deliveries</Tabs.Tab>
          <Tabs.Tab value="custom">Custom event</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="endpoints"><EndpointsTab /></Tabs.Panel>
        <Tabs.Panel value="deliveries"><DeliveriesTab /></Tabs.Panel>
        <Tabs.Panel value="custom"><CustomEventCard /></Tabs.Panel>
      </Tabs>
    </>
  );
}
