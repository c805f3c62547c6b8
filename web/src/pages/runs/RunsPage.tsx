// Run history with every filter of GET /api/executions, and reporting a local run.
import { Anchor, Button, Card, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { Run } from '../../api/types';
import { Link, navigate, setQuery, useLocation } from '../../app/router';
import { Empty } from '../../components/Empty';
import { ErrorAlert } from '../../components/ErrorAlert';
import { HistoryIcon, PlusIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Pager, pageFrom } from '../../components/Pager';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { formatDuration } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { ReportRunModal } from './ReportRunModal';
import { type RunChoices, useRunChoices } from './run-choices';
import { endOfMinute, fromLocalInput, toLocalInput } from './time-input';

const PAGE_SIZE = 25;
const STATUSES = ['running', 'completed', 'failed', 'stopped'] as const;

export function RunsPage() {
  const choices = useRunChoices();
  const [reporting, setReporting] = useState(false);
  return (
    <>
      <PageHeader
        title="Run history"
        description="Every run of your macros, on your machine and in the cloud, newest first."
        actions={<Button variant="default" leftSection={<PlusIcon size={16} />} onClick={() => setReporting(true)}>Report a local run</Button>}
      />
      <RunList choices={choices} />
      <ReportRunModal opened={reporting} onClose={() => setReporting(false)} onReported={(run) => navigate(`/runs/${run.id}`)} macros={choices.macros} devices={choices.devices} />
    </>
  );
}

function RunList({ choices }: { choices: RunChoices }) {
  const { query } = useLocation();
  const page = pageFrom(query);
  const status = STATUSES.find((s) => s === query.get('status'));
  const deviceId = query.get('device_id');
  const macroId = query.get('macro_id');
  const since = query.get('since');
  const until = query.get('until');
  const runs = useAsync(
    () =>
      unwrap(api.GET('/api/executions', {
        params: {
          query: {
            page,
            page_size: PAGE_SIZE,
            ...(status ? { status } : {}),
            ...(deviceId ? { device_id: Number(deviceId) } : {}),
            ...(macroId ? { macro_id: Number(macroId) } : {}),
            ...(since ? { since } : {}),
            ...(until ? { until } : {}),
          },
        },
      })),
    [page, status, deviceId, macroId, since, until],
  );
  const filtered = Boolean(status || deviceId || macroId || since || until);
  const rows = runs.data?.rows ?? [];
  return (
    <>
      <ErrorAlert error={runs.error} title="Could not load the run history" />
      <Card p={0}>
        <Group px="lg" py="sm" gap="sm" align="flex-end" wrap="wrap" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Select label="Status" placeholder="Any status" clearable w={130} value={status ?? null} onChange={(v) => setQuery({ status: v, page: undefined })} data={STATUSES.map((s) => ({ value: s, label: s }))} />
          <Select label="Macro" placeholder="Any macro" clearable searchable w={160} value={macroId} onChange={(v) => setQuery({ macro_id: v, page: undefined })} data={choices.macros} />
          {choices.devices.length > 0 || deviceId === null ? (
            <Select label="Device" placeholder="Any device" clearable searchable w={160} value={deviceId} onChange={(v) => setQuery({ device_id: v, page: undefined })} data={choices.devices} />
          ) : (
            <TextInput label="Device id" w={120} value={deviceId ?? ''} onChange={(e) => setQuery({ device_id: e.currentTarget.value.replace(/\D/g, ''), page: undefined })} />
          )}
          <TextInput type="datetime-local" label="Started from" w={200} value={since ? toLocalInput(since, false) : ''} onChange={(e) => setQuery({ since: fromLocalInput(e.currentTarget.value), page: undefined })} />
          <TextInput type="datetime-local" label="Started until" w={200} value={until ? toLocalInput(until, false) : ''} onChange={(e) => setQuery({ until: endOfMinute(e.currentTarget.value), page: undefined })} />
          {filtered && <Button variant="subtle" onClick={() => setQuery({ status: undefined, device_id: undefined, macro_id: undefined, since: undefined, until: undefined, page: undefined })}>Clear filters</Button>}
        </Group>
        {runs.loading && !runs.data ? (
          <Loading label="Loading runs…" />
        ) : rows.length === 0 ? (
          <Empty icon={<HistoryIcon size={22} />} title={filtered ? 'No runs match' : 'No runs yet'}>
            {filtered ? 'Change or clear the filters above.' : 'Runs appear here as your macros run: cloud runs by themselves, local runs when the application reports them.'}
          </Empty>
        ) : (
          <Table.ScrollContainer minWidth={940}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Run</Table.Th>
                  <Table.Th>Macro</Table.Th>
                  <Table.Th>Device</Table.Th>
                  <Table.Th>Started</Table.Th>
                  <Table.Th>Duration</Table.Th>
                  <Table.Th>Exit</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>{rows.map((run) => <RunRow key={run.id} run={run} />)}</Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {runs.data && runs.data.total_rows > 0 && <Pager noun="runs" info={runs.data} onPage={(p) => setQuery({ page: p })} />}
    </>
  );
}

function RunRow({ run }: { run: Run }) {
  return (
    <Table.Tr>
      <Table.Td><StatusBadge value={run.status} /></Table.Td>
      <Table.Td><Anchor component={Link} to={`/runs/${run.id}`} className="mono">{run.execution_id}</Anchor></Table.Td>
      <Table.Td><Text size="sm">{run.macro_name ?? '—'}</Text><Text size="xs" c="dimmed">{run.execution_type === 'python' ? 'Python' : 'Block'}</Text></Table.Td>
      <Table.Td><Text size="sm">{run.device_name ?? '—'}</Text><Text size="xs" c="dimmed">{run.device_port ? `port ${run.device_port}` : 'cloud'}</Text></Table.Td>
      <Table.Td><Text size="sm"><Time value={run.started_at} /></Text></Table.Td>
      <Table.Td><Text size="sm">{run.duration_ms !== undefined ? formatDuration(run.duration_ms) : run.status === 'running' ? 'running…' : '—'}</Text></Table.Td>
      <Table.Td><Text size="sm" className="mono">{run.exit_code ?? '—'}</Text></Table.Td>
    </Table.Tr>
  );
}
