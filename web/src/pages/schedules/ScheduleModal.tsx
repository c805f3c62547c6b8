// Making or changing a schedule: which macro, on which cloud device or cloud group, when (a
// five-field cron expression read in a time zone). The service checks everything and its 422
// names the field, and the form shows it on that field in plain words; the rule is described
// in words as it is typed (cronstrue), and the schedule's page then shows its next five fire
// times, so a person sees what they set up.
import { Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError } from '../../api/errors';
import type { Schedule } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { describeCron } from '../../lib/fire-time';
import { useAction } from '../../lib/use-async';
import { TEXT } from '../../theme';
import type { ScheduleChoices } from './schedule-choices';
import { createSchedule, updateSchedule } from './schedules-api';

type TargetKind = 'device' | 'group';

const FIELDS = ['macro_id', 'device_id', 'group_id', 'cron', 'timezone', 'name'] as const;
type Field = (typeof FIELDS)[number];
const NOUNS: Record<Field, string> = { macro_id: 'This macro', device_id: 'This device', group_id: 'This group', cron: 'This rule', timezone: 'This zone', name: 'This name' };

/**
 * A 422's field errors as sentences for the fields they name ("body.cron must have exactly five
 * fields…" becomes "This rule must have exactly five fields…" under When); what names no field of
 * the form stays at the top.
 */
export function fieldMessages(error: unknown): { fields: Partial<Record<Field, string>>; rest: boolean } {
  if (!(error instanceof ApiError) || error.status !== 422 || error.fieldErrors.length === 0) return { fields: {}, rest: error !== undefined };
  const fields: Partial<Record<Field, string>> = {};
  let rest = false;
  for (const e of error.fieldErrors) {
    const field = FIELDS.find((f) => e.path === `body.${f}` || e.path === f || e.path === `/${f}`);
    if (field && !fields[field]) fields[field] = `${NOUNS[field]} ${e.message.replace(/\.$/, '')}.`;
    else if (!field) rest = true;
  }
  return { fields, rest };
}

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
  const refused = fieldMessages(save.error);
  const inWords = describeCron(cron);
  const targetError = refused.fields.device_id ?? refused.fields.group_id;
  return (
    <Modal opened={opened} onClose={onClose} size="lg" title={<Text fw={650}>{schedule ? 'Edit schedule' : 'New schedule'}</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {refused.rest ? <ErrorAlert error={save.error} title="The schedule was not saved" /> : save.error !== undefined && <Text size="sm" c={TEXT.danger} role="alert">The schedule was not saved: see the field marked below.</Text>}
          <Select label="Macro" required searchable data={choices.macros} value={macroId} onChange={setMacroId} placeholder="Choose a macro" nothingFoundMessage="No macro by that name" error={refused.fields.macro_id} data-autofocus />
          <Stack gap={6}>
            <Text size="sm" fw={500} id="schedule-target-label">Runs on</Text>
            <SegmentedControl aria-labelledby="schedule-target-label" value={targetKind} onChange={(v) => { setTargetKind(v as TargetKind); setTargetId(null); }}
              data={[{ value: 'device', label: 'A cloud device' }, { value: 'group', label: 'Every device of a cloud group' }]} />
          </Stack>
          <Select label={targetKind === 'device' ? 'Cloud device' : 'Cloud group'} required searchable data={targets} value={targetId} onChange={setTargetId}
            placeholder={targets.length === 0 ? `You have no cloud ${targetKind} yet` : `Choose a cloud ${targetKind}`}
            description={targetKind === 'group' ? 'Fans out at each fire time over the devices in the group then' : undefined} error={targetError} />
          <TextInput label="When (cron)" required classNames={{ input: 'mono' }} value={cron} onChange={(e) => setCron(e.currentTarget.value)} error={refused.fields.cron}
            description={inWords ? <span aria-live="polite">Reads as: {inWords}</span> : 'Five fields: minute hour day-of-month month day-of-week. 0 9 * * 1-5 is 09:00 on weekdays; */15 * * * * every quarter hour.'} />
          <TextInput label="Time zone" required value={timezone} onChange={(e) => setTimezone(e.currentTarget.value)} error={refused.fields.timezone} description="An IANA zone such as Europe/Berlin or America/New_York; daylight-saving changes are followed" />
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={refused.fields.name} description="Optional; the macro's name when empty" maxLength={255} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.pending}>{schedule ? 'Save schedule' : 'Create schedule'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
