// Start, stop and delete a cloud device. The routes answer at once (202 moving, 200 as it
// is); the section then follows `hosted_state` (placing → starting → ready) by reloading the
// device list until the device rests, and shows the steps as a progress bar.
import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import type { Device } from '../../../api/types';
import { Confirm } from '../../../components/Confirm';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useAction } from '../../../lib/use-async';
import { TEXT } from '../../../theme';
import { deleteCloudDevice, startDevice, stopDevice } from './cloud-api';

/** How far along the way to `ready` each state is, for the progress bar. */
const PROGRESS: Record<string, number> = { placing: 25, starting: 60, ready: 100, stopping: 50 };
export const MOVING = new Set(['placing', 'starting', 'stopping']);

export function LifecycleActions({ device, onChanged, onDeleted }: { device: Device; onChanged: () => void; onDeleted: () => void }) {
  const state = device.hosted_state ?? 'stopped';
  const id = device.id;
  const start = useAction(() => startDevice(id));
  const stop = useAction(() => stopDevice(id));
  const remove = async () => {
    await deleteCloudDevice(id);
    onDeleted();
  };
  const canStart = state === 'stopped' || state === 'error';
  const canStop = state !== 'stopped' && state !== 'stopping';
  return (
    <Stack gap="xs">
      {MOVING.has(state) && (
        <Progress value={PROGRESS[state]} animated aria-label={state === 'stopping' ? 'Stopping' : 'Starting: placing, booting, ready'} color={state === 'stopping' ? 'yellow' : 'indigo'} />
      )}
      {state === 'error' && device.hosted_state_message && (
        <Text size="sm" c={TEXT.danger} role="alert">Why: {device.hosted_state_message}</Text>
      )}
      <Group gap="xs">
        <Button size="xs" disabled={!canStart} loading={start.pending} onClick={() => void start.run().then((o) => o.ok && onChanged())}>
          {state === 'error' ? 'Start again' : 'Start'}
        </Button>
        <Button size="xs" variant="default" disabled={!canStop} loading={stop.pending} onClick={() => void stop.run().then((o) => o.ok && onChanged())}>Stop</Button>
        <Confirm title="Delete this cloud device?" confirmLabel="Delete cloud device" onConfirm={remove}
          trigger={(open) => <Button size="xs" variant="subtle" c={TEXT.danger} onClick={open}>Delete</Button>}>
          “{device.name}” is shut down (its run is stopped first) and removed from your account. Its run history stays.
        </Confirm>
      </Group>
      <ErrorAlert error={start.error ?? stop.error} />
    </Stack>
  );
}
