// A cloud run's own state (launching → running → finished, failed or stopped) and its Stop
// button, on the run page of a `cr_` run. The run routes take the record's execution_id (our
// extension, docs/runs.md), so the page needs nothing more than the record; a `?cloud_run={id}`
// in the URL ("Start run" adds it) is used when present, and then the answer's execution_id
// must match the record's, or the panel says so.
import { Button, Card, DataList, Group, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StatusBadge } from '../../components/StatusBadge';
import { exactTime } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { getCloudRun, stopCloudRun } from './runs-api';

const ACTIVE = new Set(['launching', 'running', 'stopping']);
const POLL_MS = 2000;

export function CloudRunPanel({ cloudRunId, executionId, onChanged }: { cloudRunId?: number; executionId: string; onChanged: () => void }) {
  const ref = cloudRunId ?? executionId;
  const run = useAsync(() => getCloudRun(ref), [ref]);
  const stop = useAction(() => stopCloudRun(ref));
  const state = run.data?.state;
  useEffect(() => {
    if (!state || !ACTIVE.has(state)) return;
    const timer = setInterval(run.reload, POLL_MS);
    return () => clearInterval(timer);
  }, [state, run.reload]);
  useEffect(() => {
    if (state && !ACTIVE.has(state)) onChanged();
  }, [state, onChanged]);
  if (run.error && !run.data) return <Card><ErrorAlert error={run.error} title="Could not read the cloud run" /></Card>;
  if (!run.data) return <Card><Text size="sm" c="dimmed">Reading the cloud run…</Text></Card>;
  if (run.data.execution_id !== executionId) return <Card><Text size="sm">Cloud run {cloudRunId} belongs to another run ({run.data.execution_id}).</Text></Card>;
  const r = run.data;
  return (
    <Card aria-labelledby="cloud-run-title">
      <Group justify="space-between" mb="sm">
        <Title id="cloud-run-title" order={2} fz="md">Cloud run {r.id}</Title>
        <Group gap="xs">
          <StatusBadge value={r.state} />
          {ACTIVE.has(r.state) && (
            <Button size="xs" color="red" variant="light" loading={stop.pending} disabled={r.state === 'stopping'} onClick={() => void stop.run().then((o) => o.ok && run.reload())}>
              {r.state === 'stopping' ? 'Stopping…' : 'Stop run'}
            </Button>
          )}
        </Group>
      </Group>
      <DataList labelWidth={110} size="sm">
        <DataList.Item><DataList.ItemLabel>State</DataList.ItemLabel><DataList.ItemValue style={{ overflowWrap: 'anywhere' }}><span role="status" data-testid="cloud-run-state">{r.state}</span>{r.state_message ? ` — ${r.state_message}` : ''}</DataList.ItemValue></DataList.Item>
        <DataList.Item><DataList.ItemLabel>Started</DataList.ItemLabel><DataList.ItemValue>{r.started_at ? exactTime(r.started_at) : 'not yet'}</DataList.ItemValue></DataList.Item>
        <DataList.Item><DataList.ItemLabel>Finished</DataList.ItemLabel><DataList.ItemValue>{r.finished_at ? exactTime(r.finished_at) : '—'}</DataList.ItemValue></DataList.Item>
        <DataList.Item><DataList.ItemLabel>Bundle</DataList.ItemLabel><DataList.ItemValue><span className="mono">{r.bundle_sha.slice(0, 12)}</span></DataList.ItemValue></DataList.Item>
      </DataList>
      <ErrorAlert error={stop.error} title="Could not stop the run" />
    </Card>
  );
}
