// Traffic through the proxies for a period: per UTC day, per proxy, device and group, charted
// in SVG with a table behind each chart. The route's `days` leaves out days without samples;
// the chart shows them as they are, one bar per day that had traffic.
import { Card, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ProxyUsage } from '../../api/types';
import { setQuery, useLocation } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StackedBarChart } from '../../components/StackedBarChart';
import { Loading } from '../../components/Loading';
import { formatBytes } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { usage as readUsage } from './proxies-api';

const PERIODS = ['today', 'week', 'month', 'all'] as const;
type Period = (typeof PERIODS)[number];

const SERIES = [
  { name: 'down', color: 'var(--mantine-color-indigo-7)' },
  { name: 'up', color: 'var(--mantine-color-cyan-8)' },
];

interface Entry { key: string; label: string; bytes_up: number; bytes_down: number }

function UsageCard({ title, entries }: { title: string; entries: Entry[] }) {
  return (
    <Card>
      <Title order={2} fz="md" mb="sm">{title}</Title>
      <StackedBarChart title={`${title}, bytes down and up`} series={SERIES} format={formatBytes} empty="No traffic in this period."
        rows={entries.map((e) => ({ key: e.key, label: e.label, values: [e.bytes_down, e.bytes_up] }))} />
    </Card>
  );
}

/** A proxy's label, else its host, with its id where two unlabelled proxies share a host. */
function proxyLabel(item: ProxyUsage['items'][number], all: ProxyUsage['items']): string {
  if (item.label) return item.label;
  return all.some((other) => other !== item && !other.label && other.host === item.host) ? `${item.host} (proxy ${item.proxy_id})` : item.host;
}

export function UsageTab() {
  const { query } = useLocation();
  const period = (PERIODS.find((p) => p === query.get('period')) ?? 'today') as Period;
  const usage = useAsync(() => readUsage({ period }), [period]);
  const u = usage.data;
  return (
    <Stack>
      <Group justify="space-between">
        <SegmentedControl aria-label="Period" value={period} onChange={(v) => setQuery({ period: v === 'today' ? undefined : v })}
          data={[{ value: 'today', label: 'Today' }, { value: 'week', label: 'This week' }, { value: 'month', label: 'This month' }, { value: 'all', label: 'All time' }]} />
        {u && <Text size="sm" c="dimmed">{u.since ? `Since ${new Date(u.since).toUTCString()}` : 'Since the first sample'}</Text>}
      </Group>
      <ErrorAlert error={usage.error} title="Could not read usage" />
      {!u ? <Loading label="Reading usage…" /> : (
        <>
          <SimpleGrid cols={3}>
            {[['Total', u.bytes_total], ['Downloaded', u.bytes_down], ['Uploaded', u.bytes_up]].map(([label, bytes]) => (
              <Card key={label}><Text size="sm" c="dimmed">{label}</Text><Text fz={26} fw={700}>{formatBytes(Number(bytes))}</Text></Card>
            ))}
          </SimpleGrid>
          <UsageCard title="By day (UTC)" entries={u.days.map((d) => ({ ...d, key: d.date, label: d.date }))} />
          <UsageCard title="By proxy" entries={u.items.map((i) => ({ ...i, key: `p${i.proxy_id}`, label: proxyLabel(i, u.items) }))} />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <UsageCard title="By device" entries={u.devices.map((d) => ({ ...d, key: `d${d.device_id}`, label: d.device_name ?? `Device ${d.device_id}` }))} />
            <UsageCard title="By group" entries={u.groups.map((g) => ({ ...g, key: `g${g.group_id}`, label: g.group_name }))} />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
