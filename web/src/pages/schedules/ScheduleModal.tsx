// Making or changing a schedule: which macro, on which cloud device or cloud group, when (a
// five-field cron expression read in a time zone). The service checks everything and its 422
// names the field; the schedule's page then shows its next five fire times, so a person sees
// what they set up.
import { Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { Schedule } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import type { ScheduleChoices } from './schedule-choices';
import { createSchedule, updateSchedule } from './schedules-api';

type TargetKind = 'device' | 'group';

/** The browser's own zone, the likeliest one for a new schedule. */
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function ScheduleModal({ schedule, opened, choices, onClose, onSaved }: { schedule: Schedule | null; opened: boolean; choices: ScheduleChoices; onClose: () => void; onSaved: (s: Schedule) => void }) {
  const [name, setName] = useState('');
  const [macroId, setMacroId] = useState<string | null>(null);
  const [targetKind, setTargetKind] = useState<TargetKind>('device');
  const [targetId, setTargetId] = useState<string | null>(null);
  const [cron, setCron] = useState('');
  const [timezone, setTimezone] = useState('');
  const save = useAction(async () => {
    const target = targetId === null ? {} : targetKind === 'device' ? { device_id: Number(targetId) } : { group_id: Number(targetId) };
    const body = { ...(name.trim() ? { name: name.trim() } : {}), ...(macroId ? { macro_id: Number(macroId) } : {}), ...target, cron: cron.trim(), timezone: timezone.trim() };
    const saved = schedule ? await updateSchedule(schedule.id, body) : await createSchedule(body as Parameters<typeof createSchedule>[0]);
    onSaved(saved);
    onClose();
  });
  useEffect(() => {
    if (!opened) return;
    setName(schedule?.name ?? '');
    setMacroId(schedule?.macro_id !== undefined ? String(schedule.macro_id) : null);
    setTargetKind(schedule?.group_id !== undefined ? 'group' : 'device');
    setTargetId(schedule?.device_id !== undefined ? String(schedule.device_id) : schedule?.group_id !== undefined ? String(schedule.group_id) : null);
    setCron(schedule?.cron ?? '0 9 * * *');
    setTimezone(schedule?.timezone ?? localZone());
    save.reset();
  }, [opened, schedule]); // the action's identity is stable
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  const targets = targetKind === 'device' ? choices.devices : choices.groups;
  return (
    <Modal opened={opened} onClose={onClose} size="lg" title={<Text fw={650}>{schedule ? 'Edit schedule' : 'New schedule'}</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={save.error} title="The schedule was not saved" />
          <Select label="Macro" required searchable data={choices.macros} value={macroId} onChange={setMacroId} placeholder="Choose a macro" nothingFoundMessage="No macro by that name" data-autofocus />
          <Stack gap={6}>
            <Text size="sm" fw={500} id="schedule-target-label">Runs on</Text>
            <SegmentedControl aria-labelledby="schedule-target-label" value={targetKind} onChange={(v) => { setTargetKind(v as TargetKind); setTargetId(null); }}
              data={[{ value: 'device', label: 'A cloud device' }, { value: 'group', label: 'Every device of a cloud group' }]} />
          </Stack>
          <Select label={targetKind === 'device' ? 'Cloud device' : 'Cloud group'} required searchable data={targets} value={targetId} onChange={setTargetId}
            placeholder={targets.length === 0 ? `You have no cloud ${targetKind} yet` : `Choose a cloud ${targetKind}`}
            description={targetKind === 'group' ? 'Fans out at each fire time over the devices in the group then' : undefined} />
          <TextInput label="When (cron)" required className="mono" value={cron} onChange={(e) => setCron(e.currentTarget.value)}
            description="Five fields: minute hour day-of-month month day-of-week. 0 9 * * 1-5 is 09:00 on weekdays; */15 * * * * every quarter hour." />
          <TextInput label="Time zone" required value={timezone} onChange={(e) => setTimezone(e.currentTarget.value)} description="An IANA zone such as Europe/Berlin or America/New_York; daylight-saving changes are followed" />
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} description="Optional; the macro's name when empty" maxLength={255} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.pending}>{schedule ? 'Save schedule' : 'Create schedule'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
