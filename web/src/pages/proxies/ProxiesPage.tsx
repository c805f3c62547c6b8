// Proxies, their assignments to devices and their traffic.
import { Tabs } from '@mantine/core';
import { setQuery, useLocation } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { AssignmentsTab } from './AssignmentsTab';
import { ProxyListTab } from './ProxyListTab';
import { UsageTab } from './UsageTab';

const TABS = ['proxies', 'assignments', 'usage'] as const;

export function ProxiesPage() {
  const { query } = useLocation();
  const tab = TABS.find((t) => t === query.get('tab')) ?? 'proxies';
  return (
    <>
      <PageHeader title="Proxies" description="Your own HTTP, HTTPS and SOCKS5 proxies: check them, assign them to devices, and see the traffic through them." />
      <Tabs value={tab} onChange={(v) => setQuery({ tab: v === 'proxies' ? undefined : v, page: undefined, status: undefined, mode: undefined, period: undefined })} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="proxies">Proxies</Tabs.Tab>
          <Tabs.Tab value="assignments">Assignments</Tabs.Tab>
          <Tabs.Tab value="usage">Usage</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="proxies"><ProxyListTab /></Tabs.Panel>
        <Tabs.Panel value="assignments"><AssignmentsTab /></Tabs.Panel>
        <Tabs.Panel value="usage"><UsageTab /></Tabs.Panel>
      </Tabs>
    </>
  );
}
