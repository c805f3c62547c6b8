// Starts a macro on this cloud device (`POST /api/hosted/devices/{id}/run`; a stopped device is
// started first) and opens the run page. The run history record shares the cloud run's
// `execution_id` but does not name the cloud run, so the run page gets the cloud run's id in
// its URL (`/runs/{history id}?cloud_run={id}`) and can show its state and a Stop button.
import { Button, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../../api/errors';
import type { Macro } from '../../../api/types';
import { navigate } from '../../../app/router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useAction } from '../../../lib/use-async';
import { historyIdOf } from '../../runs/runs-api';
import { startRun } from './cloud-api';

function parseArgs(text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(422, 'validation_failed', 'The arguments are not valid JSON.', [{ path: 'args', message: 'must be a JSON object, like {"speed": 3}' }]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(422, 'validation_failed', 'The arguments must be a JSON object.', [{ path: 'args', message: 'must be a JSON object, like {"speed": 3}' }]);
  }
  return value as Record<string, unknown>;
}

export function StartRunModal({ deviceId, macros, opened, onClose }: { deviceId: number; macros: Macro[]; opened: boolean; onClose: () => void }) {
  const [macroId, setMacroId] = useState<string | null>(null);
  const [args, setArgs] = useState('');
  const start = useAction(async () => {
    const body = { macro_id: Number(macroId), ...(parseArgs(args) ? { args: parseArgs(args) } : {}) };
    const run = await startRun(deviceId, body);
    const historyId = await historyIdOf(deviceId, run.execution_id);
    navigate(historyId ? `/runs/${historyId}?cloud_run=${run.id}` : `/runs?device_id=${deviceId}`);
  });
  return (
    <Modal opened={opened} onClose={() => { start.reset(); onClose(); }} title={<Text fw={650}>Start a run on this device</Text>} centered>
      <form onSubmit={(e) => { e.preventDefault(); void start.run(); }}>
        <Stack gap="sm">
          <Select label="Macro" placeholder="Choose a macro" searchable required value={macroId} onChange={setMacroId}
            data={macros.map((m) => ({ value: String(m.id), label: `${m.name} (${m.kind})` }))} />
          <Textarea label="Arguments (optional)" description='A JSON object laid over the device’s settings profile, like {"speed": 3}' autosize minRows={2} value={args} onChange={(e) => setArgs(e.currentTarget.value)} className="mono" />
          <Text size="xs" c="dimmed">A stopped device is started first. The run page shows its log as it arrives.</Text>
          <ErrorAlert error={start.error} title="Could not start the run" />
          <Button type="submit" disabled={!macroId} loading={start.pending}>Start run</Button>
        </Stack>
      </form>
    </Modal>
  );
}
