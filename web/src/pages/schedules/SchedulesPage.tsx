// Schedules: each with its rule, its target, its next fire time in its own zone and why the
// service disabled it; create, edit, enable, disable and delete here, and its occurrences one
// click away.
import { Anchor, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { Schedule } from '../../api/types';
import { Link, useLocation } from '../../app/router';
import { HistoryIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { describeCron, until, wallTime } from '../../lib/fire-time';
import { useAsync } from '../../lib/use-async';
import { type ScheduleChoices, useScheduleChoices } from './schedule-choices';
import { ScheduleModal } from './ScheduleModal';
import { deleteSchedule, listSchedules, updateSchedule } from './schedules-api';

const PAGE_SIZE = 25;

/** What a person should know about a disabled schedule. */
export const REASONS: Record<string, string> = {
  macro_deleted: 'its macro was deleted',
  device_deleted: 'its device was deleted',
  group_deleted: 'its group was deleted',
  failing: 'its last five runs failed',
};

export function scheduleState(s: Schedule) {
  if (s.enabled) return <StatusBadge value="enabled" />;
  return <StatusBadge value={s.disabled_reason ? 'failed' : 'stopped'} label={s.disabled_reason ? `disabled: ${REASONS[s.disabled_reason]}` : 'disabled'} />;
}

const columns = (choices: ScheduleChoices): Column<Schedule>[] => [
  { header: 'Schedule', cell: (s) => <Anchor component={Link} to={`/schedules/${s.id}`}>{s.name}</Anchor> },
  { header: 'When', cell: (s) => <><Text size="sm">{describeCron(s.cron) ?? s.cron}</Text><Text size="xs" c="dimmed"><span className="mono">{s.cron}</span> · {s.timezone}</Text></> },
  { header: 'Runs on', cell: (s) => <Text size="sm">{choices.targetName(s)}</Text> },
  { header: 'Next fire', cell: (s) => (s.next_fires?.[0] ? <><Text size="sm" style={{ whiteSpace: 'nowrap' }} title={s.next_fires[0]}>{wallTime(s.next_fires[0], s.timezone)}</Text><Text size="xs" c="dimmed">{until(s.next_fires[0])}</Text></> : <Text size="sm">—</Text>) },
  { header: 'Last fire', cell: (s) => <Text size="sm"><Time value={s.last_fire_at} empty="never" /></Text> },
  { header: 'State', cell: scheduleState },
];

export function SchedulesPage() {
  const page = pageFrom(useLocation().query);
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const choices = useScheduleChoices();
  const schedules = useAsync(() => listSchedules({ page, page_size: PAGE_SIZE }), [page, version]);
  const toggle = async (s: Schedule) => {
    await updateSchedule(s.id, { enabled: !s.enabled });
    setVersion((v) => v + 1);
  };
  return (
    <>
      <PageHeader
        title="Schedules"
        description="Macros that run on a cloud device or a cloud group on a cron expression in their own time zone. Also through the API and a tool client's schedule_create."
        actions={<Button onClick={() => setEditing('new')}>New schedule</Button>}
      />
      {notice && <Text size="sm" mb="md" role="status">{notice}</Text>}
      <ScheduleModal
        schedule={editing === 'new' ? null : editing}
        opened={editing !== null}
        choices={choices}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          setNotice(`Saved “${saved.name}”: ${saved.next_fires?.[0] ? `it fires next on ${wallTime(saved.next_fires[0], saved.timezone)} (${until(saved.next_fires[0])})` : 'it is disabled'}.`);
          setVersion((v) => v + 1);
        }}
      />
      <ResourceTable
        noun="schedule"
        list={schedules}
        columns={columns(choices)}
        rowKey={(s) => s.id}
        minWidth={900}
        rowActions={(s) => (
          <Group gap={6} wrap="nowrap">
            <Button size="xs" variant="default" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>Edit</Button>
            {(s.enabled || !s.disabled_reason || s.disabled_reason === 'failing') && (
              <Button size="xs" variant="default" onClick={() => void toggle(s)} aria-label={`${s.enabled ? 'Disable' : 'Enable'} ${s.name}`}>{s.enabled ? 'Disable' : 'Enable'}</Button>
            )}
          </Group>
        )}
        remove={{
          buttonLabel: (s) => `Delete ${s.name}`,
          title: 'Delete this schedule?',
          confirmLabel: 'Delete schedule',
          body: (s) => <Text size="sm">{s.name} stops firing and its occurrences are deleted. The runs it started stay in the run history.</Text>,
          run: async (s) => {
            await deleteSchedule(s.id);
            setVersion((v) => v + 1);
          },
        }}
        empty={{ icon: <HistoryIcon size={22} />, title: 'No schedules yet', body: 'A schedule runs a macro on time: New schedule above, POST /api/schedules, or schedule_create from a tool client.' }}
      />
    </>
  );
}
