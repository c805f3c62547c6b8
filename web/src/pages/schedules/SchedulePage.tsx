// One schedule: its rule in words and its next five fire times in its own zone, and what
// happened at each fire time on each device, newest first, with a link to the run it started.
// It follows the schedule while the tab is visible (a poll every 5 s: the console has no push
// for schedules), so an occurrence appears without a reload.
import { Anchor, Card, Group, List, Text } from '@mantine/core';
import type { ScheduleOccurrence } from '../../api/types';
import { Link, useLocation } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { HistoryIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { StatusBadge } from '../../components/StatusBadge';
import { exactTime } from '../../components/Time';
import { describeCron, fireTime } from '../../lib/fire-time';
import { useAsync } from '../../lib/use-async';
import { usePollWhileVisible } from '../../lib/use-poll';
import { getSchedule, listOccurrences } from './schedules-api';
import { type ScheduleChoices, useScheduleChoices } from './schedule-choices';
import { scheduleState } from './SchedulesPage';

const OUTCOME_COLORS: Record<string, string> = { started: 'completed', skipped: 'stopped', missed: 'failed' };

/** How often the page reads the schedule and its occurrences again while it is visible. */
const POLL_MS = 5000;

const columns = (timezone: string, choices: ScheduleChoices): Column<ScheduleOccurrence>[] => [
  { header: 'Fire time', cell: (o) => <Text size="sm" title={exactTime(o.fire_at)}>{fireTime(o.fire_at, timezone)}</Text> },
  { header: 'Device', cell: (o) => <Text size="sm">{o.device_id !== undefined ? choices.deviceName(o.device_id) : '—'}</Text> },
  { header: 'Outcome', cell: (o) => <StatusBadge value={OUTCOME_COLORS[o.outcome] ?? o.outcome} label={o.outcome} /> },
  { header: 'Reason', cell: (o) => <Text size="sm" className="mono">{o.reason ?? '—'}</Text> },
  {
    header: 'Run',
    cell: (o) =>
      o.execution_id && o.device_id !== undefined ? (
        // The run history from this fire time on this device: the run it started comes first.
        <Anchor component={Link} to={`/runs?device_id=${o.device_id}&since=${encodeURIComponent(o.fire_at)}`} className="mono">{o.execution_id}</Anchor>
      ) : (
        <Text size="sm">—</Text>
      ),
  },
];

export function SchedulePage({ params }: { params: Record<string, string> }) {
  const id = Number(params.id);
  const page = pageFrom(useLocation().query);
  const schedule = useAsync(() => getSchedule(id), [id]);
  const occurrences = useAsync(() => listOccurrences(id, { page, page_size: 25 }), [id, page]);
  const s = schedule.data;
  const choices = useScheduleChoices();
  const reloadSchedule = schedule.reload;
  const reloadOccurrences = occurrences.reload;
  usePollWhileVisible(reloadSchedule, POLL_MS);
  usePollWhileVisible(reloadOccurrences, POLL_MS);
  return (
    <>
      <PageHeader title={s?.name ?? 'Schedule'} description={s ? `${describeCron(s.cron) ?? s.cron} (${s.cron}) in ${s.timezone}, on ${choices.targetName(s)}` : undefined} />
      {!s && <ErrorAlert error={schedule.error} title="Could not load the schedule" />}
      {schedule.loading && !s && <Loading />}
      {s && (
        <Card mb="lg">
          <Group gap="sm" mb="xs">{scheduleState(s)}</Group>
          <Text size="sm" fw={600} id="next-fires">Next fire times ({s.timezone})</Text>
          {s.next_fires ? (
            <List size="sm" listStyleType="none" aria-labelledby="next-fires">
              {s.next_fires.map((at) => <List.Item key={at} title={exactTime(at)}>{fireTime(at, s.timezone)}</List.Item>)}
            </List>
          ) : <Text size="sm">none while it is disabled</Text>}
        </Card>
      )}
      <ResourceTable
        noun="occurrence"
        list={occurrences}
        columns={columns(s?.timezone ?? 'UTC', choices)}
        rowKey={(o) => o.id}
        minWidth={760}
        empty={{ icon: <HistoryIcon size={22} />, title: 'Nothing has fired yet', body: 'Each fire time appears here per device: started (with its run), skipped (a busy device) or missed (after downtime).' }}
      />
    </>
  );
}
