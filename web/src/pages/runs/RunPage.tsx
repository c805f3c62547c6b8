// One run: what ran where, how it ended, and its log (tailed live while it runs); for a cloud
// run (`cr_` execution_id), the cloud run's state and Stop button, however the page was opened.
import { Anchor, Box, Button, Card, DataList, Grid, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import type { Run } from '../../api/types';
import { Link, useLocation } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { exactTime } from '../../components/Time';
import { formatDuration } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { CloudRunPanel } from './CloudRunPanel';
import { ReportRunModal } from './ReportRunModal';
import { RunLog } from './RunLog';
import { RunTrace } from './RunTrace';
import { TEXT } from '../../theme';
import { getRun } from './runs-api';

export function RunPage({ params }: { params: Record<string, string> }) {
  const cloudRun = Number(useLocation().query.get('cloud_run')) || undefined;
  return <RunDetail id={Number(params.id)} cloudRunId={cloudRun} />;
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return <DataList.Item><DataList.ItemLabel>{label}</DataList.ItemLabel><DataList.ItemValue>{children}</DataList.ItemValue></DataList.Item>;
}

function RunDetail({ id, cloudRunId }: { id: number; cloudRunId?: number }) {
  const run = useAsync(() => getRun(id), [id]);
  const [ending, setEnding] = useState(false);
  const back = <Anchor component={Link} to="/runs" size="sm">← Run history</Anchor>;
  if (run.error && !run.data) return <>{back}<ErrorAlert error={run.error} title="Could not open this run" /></>;
  if (!run.data) return <Loading label="Loading the run…" />;
  const r: Run = run.data;
  const local = r.device_port !== undefined;
  return (
    <>
      <PageHeader
        eyebrow={back}
        title={<span className="mono" style={{ fontSize: 24 }}>{r.execution_id}</span>}
        description={<>Run {r.id} of {r.macro_name ?? 'a deleted macro'} on {r.device_name ?? 'a deleted device'}</>}
        actions={r.status === 'running' && local ? <Button variant="default" onClick={() => setEnding(true)}>Report that it ended</Button> : <StatusBadge value={r.status} />}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card>
            <Title order={2} fz="md" mb="sm">Details</Title>
            <DataList labelWidth={110} size="sm">
              <Item label="Status"><StatusBadge value={r.status} /></Item>
              <Item label="Macro">{r.macro_id ? <Anchor component={Link} to={`/macros/${r.macro_id}`} size="sm">{r.macro_name}</Anchor> : '—'} <Text span size="xs" c="dimmed">({r.execution_type})</Text></Item>
              <Item label="Device">{r.device_name ?? '—'}{r.device_port ? ` · port ${r.device_port}` : ' · cloud'}</Item>
              <Item label="Started">{exactTime(r.started_at)}</Item>
              <Item label="Ended">{r.ended_at ? exactTime(r.ended_at) : 'still running'}</Item>
              <Item label="Duration">{r.duration_ms !== undefined ? formatDuration(r.duration_ms) : '—'}</Item>
              <Item label="Exit code"><span className="mono">{r.exit_code ?? '—'}</span></Item>
              <Item label="Proxy exit">{r.proxy_exit_ip ? `${r.proxy_exit_ip}${r.proxy_country ? ` (${r.proxy_country})` : ''}` : '—'}</Item>
            </DataList>
            {r.error_message && (
              <>
                <Text size="sm" fw={600} mt="md">Error</Text>
                <Text size="sm" c={TEXT.danger} style={{ whiteSpace: 'pre-wrap' }}>{r.error_message}</Text>
              </>
            )}
          </Card>
          {r.execution_id.startsWith('cr_') && (
            <Box mt="lg">
              <CloudRunPanel cloudRunId={cloudRunId} executionId={r.execution_id} onChanged={run.reload} />
            </Box>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card><RunLog executionId={r.execution_id} running={r.status === 'running'} onTick={run.reload} /></Card>
        </Grid.Col>
        {r.execution_id.startsWith('cr_') && (
          <Grid.Col span={12}>
            <RunTrace executionId={r.execution_id} macroId={r.macro_id ?? undefined} running={r.status === 'running'} />
          </Grid.Col>
        )}
      </Grid>
      <ReportRunModal opened={ending} run={r} onClose={() => setEnding(false)} onReported={run.reload} macros={[]} devices={[]} />
    </>
  );
}
