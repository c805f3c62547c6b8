// Traffic through the proxies for a period, per proxy, device and group. The API answers
// totals per period (today, this week, this month, all time), not a series per day.
import { Card, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { setQuery, useLocation } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { formatBytes } from '../../lib/format';
import { useAsync } from '../../lib/use-async';

const PERIODS = ['today', 'week', 'month', 'all'] as const;
type Period = (typeof PERIODS)[number];

interface Bar { key: string; label: string; up: number; down: number; total: number }

function Bars({ title, bars }: { title: string; bars: Bar[] }) {
  const max = Math.max(1, ...bars.map((b) => b.total));
  return (
    <Card>
      <Title order={2} fz="md" mb="sm">{title}</Title>
      {bars.length === 0 ? <Text size="sm" c="dimmed">No traffic in this period.</Text> : (
        <Stack gap="sm">
          {bars.map((b) => (
            <div key={b.key}>
              <Group justify="space-between" mb={4}><Text size="sm" fw={500}>{b.label}</Text><Text size="sm" c="dimmed">{formatBytes(b.total)}</Text></Group>
              <div role="img" aria-label={`${b.label}: ${formatBytes(b.down)} down, ${formatBytes(b.up)} up`} style={{ display: 'flex', height: 10, borderRadius: 5, overflow: 'hidden', background: 'var(--mantine-color-gray-1)' }}>
                <div style={{ width: `${(b.down / max) * 100}%`, background: 'var(--mantine-color-indigo-6)' }} />
                <div style={{ width: `${(b.up / max) * 100}%`, background: 'var(--mantine-color-cyan-6)' }} />
              </div>
            </div>
          ))}
          <Group gap="md" aria-hidden><Text size="xs" c="indigo.8">■ down</Text><Text size="xs" c="cyan.9">■ up</Text></Group>
        </Stack>
      )}
    </Card>
  );
}

export function UsageTab() {
  const { query } = useLocation();
  const period = (PERIODS.find((p) => p === query.get('period')) ?? 'today') as Period;
  const usage = useAsync(() => unwrap(api.GET('/api/proxy/usage', { params: { query: { period } } })), [period]);
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
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <Bars title="By proxy" bars={u.items.map((i) => ({ key: `p${i.proxy_id}`, label: i.label ?? i.host, up: i.bytes_up, down: i.bytes_down, total: i.bytes_total }))} />
            <Bars title="By device" bars={u.devices.map((d) => ({ key: `d${d.device_id}`, label: d.device_name ?? `Device ${d.device_id}`, up: d.bytes_up, down: d.bytes_down, total: d.bytes_total }))} />
            <Bars title="By group" bars={u.groups.map((g) => ({ key: `g${g.group_id}`, label: g.group_name, up: g.bytes_up, down: g.bytes_down, total: g.bytes_total }))} />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
