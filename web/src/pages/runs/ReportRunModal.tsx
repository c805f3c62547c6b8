// Reporting a local run (a session route): local runs happen inside the application, which
// reports them so run history, events and webhooks cover them too. The first report creates
// the run; a later one with the same execution id ends it.
import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { Run } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { fromLocalInput, toLocalInput } from './time-input';
import { reportRun } from './runs-api';

type Status = Run['status'];
export interface Choice { value: string; label: string }

export function ReportRunModal({ opened, onClose, onReported, run, macros, devices }: {
  opened: boolean;
  onClose: () => void;
  onReported: (run: Run) => void;
  /** Set to report the end of this running run. */
  run?: Run;
  macros: (Choice & { kind: 'python' | 'block' })[];
  devices: Choice[];
}) {
  const [executionId, setExecutionId] = useState('');
  const [status, setStatus] = useState<Status>('running');
  const [macroId, setMacroId] = useState<string | null>(null);
  const [deviceId, setDeviceId] = useState<string | number>('');
  const [startedAt, setStartedAt] = useState('');
  const [endedAt, setEndedAt] = useState('');
  const [exitCode, setExitCode] = useState<string | number>('');
  const [errorMessage, setErrorMessage] = useState('');
  const ending = run !== undefined;
  const macro = macros.find((m) => m.value === macroId);
  const ended = status !== 'running';
  const report = useAction(async () => {
    const body = {
      execution_id: executionId,
      status,
      macro_id: Number(macroId ?? 0),
      device_id: Number(deviceId),
      execution_type: run?.execution_type ?? macro?.kind ?? 'python',
      // The end of a run keeps its recorded start exactly (the input shows whole seconds).
      started_at: run?.started_at ?? fromLocalInput(startedAt),
      ...(ended ? { ended_at: fromLocalInput(endedAt) } : {}),
      ...(ended && exitCode !== '' ? { exit_code: Number(exitCode) } : {}),
      ...(ended && errorMessage.trim() ? { error_message: errorMessage } : {}),
    };
    onReported(await reportRun(body));
    onClose();
  });
  useEffect(() => {
    if (!opened) return;
    const now = toLocalInput(new Date().toISOString());
    setExecutionId(run?.execution_id ?? `local-${Math.random().toString(36).slice(2, 10)}`);
    setStatus(run ? 'completed' : 'running');
    setMacroId(run?.macro_id ? String(run.macro_id) : null);
    setDeviceId(run?.device_id ?? '');
    setStartedAt(run ? toLocalInput(run.started_at) : now);
    setEndedAt(now);
    setExitCode(run ? 0 : '');
    setErrorMessage('');
    report.reset();
  }, [opened, run]); // the action's identity is stable
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void report.run();
  };
  const statuses = (ending ? ['completed', 'failed', 'stopped'] : ['running', 'completed', 'failed', 'stopped']).map((s) => ({ value: s, label: s }));
  return (
    <Modal opened={opened} onClose={onClose} size="lg" title={<Text fw={650}>{ending ? 'Report that this run ended' : 'Report a local run'}</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {ending ? 'Records how the run ended; the service emits its event and webhooks deliver it.' : 'For runs that happened on your machine: the service records them in the history and emits their events.'}
          </Text>
          <ErrorAlert error={report.error} title="The run was not recorded" />
          <SimpleGrid cols={2}>
            <TextInput label="Execution id" description="Letters, digits, - and _" required maxLength={64} value={executionId} disabled={ending} onChange={(e) => setExecutionId(e.currentTarget.value)} />
            <Select label="Status" required allowDeselect={false} value={status} onChange={(v) => setStatus((v ?? 'running') as Status)} data={statuses} />
            <Select label="Macro" required searchable disabled={ending} value={macroId} onChange={setMacroId} data={macros} placeholder="Choose a macro" />
            {devices.length > 0 ? (
              <Select label="Device" required searchable disabled={ending} value={deviceId === '' ? null : String(deviceId)} onChange={(v) => setDeviceId(v ?? '')} data={devices} placeholder="Choose a device" />
            ) : (
              <NumberInput label="Device id" description="The device's number" required min={1} allowDecimal={false} disabled={ending} value={deviceId} onChange={setDeviceId} />
            )}
            <TextInput type="datetime-local" step={1} label="Started at" description="Your local time" required disabled={ending} value={startedAt} onChange={(e) => setStartedAt(e.currentTarget.value)} />
            {ended && <TextInput type="datetime-local" step={1} label="Ended at" description="Your local time" required value={endedAt} onChange={(e) => setEndedAt(e.currentTarget.value)} />}
            {ended && <NumberInput label="Exit code" description="Optional" allowDecimal={false} value={exitCode} onChange={setExitCode} />}
          </SimpleGrid>
          {ended && <Textarea label="Error message" description="Optional" autosize minRows={2} value={errorMessage} onChange={(e) => setErrorMessage(e.currentTarget.value)} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={report.pending}>{ending ? 'Report the end' : 'Report run'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
