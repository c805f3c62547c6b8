// Run history with every filter of GET /api/executions, and reporting a local run.
import { Anchor, Button, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Run } from '../../api/types';
import { Link, navigate, setQuery, useLocation } from '../../app/router';
import { FilterBar } from '../../components/FilterBar';
import { HistoryIcon, PlusIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { QuerySelect } from '../../components/QueryFilters';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { formatDuration } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { ReportRunModal } from './ReportRunModal';
import { type RunChoices, useRunChoices } from './run-choices';
import { listRuns } from './runs-api';
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

const COLUMNS: Column<Run>[] = [
  { header: 'Status', cell: (run) => <StatusBadge value={run.status} /> },
  { header: 'Run', cell: (run) => <Anchor component={Link} to={`/runs/${run.id}`} className="mono">{run.execution_id}</Anchor> },
  { header: 'Macro', cell: (run) => <><Text size="sm">{run.macro_name ?? '—'}</Text><Text size="xs" c="dimmed">{run.execution_type === 'python' ? 'Python' : 'Block'}</Text></> },
  { header: 'Device', cell: (run) => <><Text size="sm">{run.device_name ?? '—'}</Text><Text size="xs" c="dimmed">{run.device_port ? `port ${run.device_port}` : 'cloud'}</Text></> },
  { header: 'Started', cell: (run) => <Text size="sm"><Time value={run.started_at} /></Text> },
  { header: 'Duration', cell: (run) => <Text size="sm">{run.duration_ms !== undefined ? formatDuration(run.duration_ms) : run.status === 'running' ? 'running…' : '—'}</Text> },
  { header: 'Exit', cell: (run) => <Text size="sm" className="mono">{run.exit_code ?? '—'}</Text> },
];

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
      listRuns({
        page,
        page_size: PAGE_SIZE,
        ...(status ? { status } : {}),
        ...(deviceId ? { device_id: Number(deviceId) } : {}),
        ...(macroId ? { macro_id: Number(macroId) } : {}),
        ...(since ? { since } : {}),
        ...(until ? { until } : {}),
      }),
    [page, status, deviceId, macroId, since, until],
  );
  const filtered = Boolean(status || deviceId || macroId || since || until);
  return (
    <ResourceTable
      noun="run"
      list={runs}
      columns={COLUMNS}
      rowKey={(run) => run.id}
      minWidth={940}
      errorTitle="Could not load the run history"
      toolbar={
        <FilterBar
          label="Filter runs"
          visibleLabels
          filtered={filtered}
          fields={[
            { kind: 'select', param: 'status', label: 'Status', placeholder: 'Any status', width: 130, data: STATUSES.map((s) => ({ value: s, label: s })) },
            { kind: 'select', param: 'macro_id', label: 'Macro', placeholder: 'Any macro', width: 160, searchable: true, data: choices.macros },
          ]}
          extraParams={['device_id', 'since', 'until']}
        >
          {choices.devices.length > 0 || deviceId === null ? (
            <QuerySelect param="device_id" label="Device" visibleLabel placeholder="Any device" width={160} searchable data={choices.devices} />
          ) : (
            <TextInput label="Device id" w={120} value={deviceId ?? ''} onChange={(e) => setQuery({ device_id: e.currentTarget.value.replace(/\D/g, ''), page: undefined })} />
          )}
          <TextInput type="datetime-local" label="Started from" w={200} value={since ? toLocalInput(since, false) : ''} onChange={(e) => setQuery({ since: fromLocalInput(e.currentTarget.value), page: undefined })} />
          <TextInput type="datetime-local" label="Started until" w={200} value={until ? toLocalInput(until, false) : ''} onChange={(e) => setQuery({ until: endOfMinute(e.currentTarget.value), page: undefined })} />
        </FilterBar>
      }
      filtered={filtered}
      empty={{ icon: <HistoryIcon size={22} />, title: 'No runs yet', body: 'Runs appear here as your macros run: cloud runs by themselves, local runs when the application reports them.' }}
    />
  );
}
