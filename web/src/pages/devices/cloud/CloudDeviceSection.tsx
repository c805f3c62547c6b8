// The cloud device part of the device drawer: its state and lifecycle (start, stop, delete,
// followed through placing → starting → ready by reloading the device list every second while
// it moves), and once it is ready: the live view (tap to touch it) with the recorder, a
// screenshot, cropping a template into the image library, its apps and an APK upload, and
// "Start run". Components: LifecycleActions, RecorderPanel (with LiveView), ScreenshotButton,
// CropTemplateModal, AppsPanel, StartRunModal; the routes they call are in docs/console.md.
import { Button, Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useAsync } from '../../../lib/use-async';
import { screenSize } from './cloud-api';
import type { Device, Macro } from '../../../api/types';
import { StatusBadge } from '../../../components/StatusBadge';
import { AppsPanel } from './AppsPanel';
import { CropTemplateModal } from './CropTemplateModal';
import { LifecycleActions, MOVING } from './LifecycleActions';
import { RecorderPanel } from './RecorderPanel';
import { ScreenshotButton } from './ScreenshotButton';
import { StartRunModal } from './StartRunModal';

const STATE_WORDS: Record<string, string> = {
  stopped: 'Stopped. It costs nothing while stopped.',
  placing: 'Finding a host for it…',
  starting: 'Booting…',
  ready: 'Running and ready for runs.',
  stopping: 'Stopping…',
  error: 'It failed to start or stop.',
};
const FOLLOW_MS = 1000;

export function CloudDeviceSection({ device, macros, onChanged, onDeleted }: { device: Device; macros: Macro[]; onChanged: () => void; onDeleted: () => void }) {
  const state = device.hosted_state ?? 'stopped';
  const [running, setRunning] = useState(false);
  const [cropping, setCropping] = useState(false);
  // The screen in device pixels, read once the device is ready: the live view maps clicks with it.
  const size = useAsync(() => (state === 'ready' ? screenSize(device.id) : Promise.resolve(undefined)), [device.id, state]);
  // While the device moves, read the list again each second until it rests.
  useEffect(() => {
    if (!MOVING.has(state)) return;
    const timer = setInterval(onChanged, FOLLOW_MS);
    return () => clearInterval(timer);
  }, [state, onChanged]);
  return (
    <Card aria-labelledby="cloud-device-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title id="cloud-device-title" order={3} fz="sm">Cloud device</Title>
          <StatusBadge value={state} />
        </Group>
        <Text size="sm" role="status" aria-live="polite">{STATE_WORDS[state] ?? state}</Text>
        <LifecycleActions device={device} onChanged={onChanged} onDeleted={onDeleted} />
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => setRunning(true)}>Start run…</Button>
          {state === 'ready' && <ScreenshotButton deviceId={device.id} deviceName={device.name} />}
          {state === 'ready' && <Button size="xs" variant="default" onClick={() => setCropping(true)}>Crop a template…</Button>}
        </Group>
        {state === 'ready' ? (
          <>
            <Divider />
            <RecorderPanel key={`${device.id}-${device.updated_at}`} deviceId={device.id} size={size} />
            <Divider />
            <AppsPanel deviceId={device.id} />
          </>
        ) : (
          <Text size="sm" c="dimmed">The live view, screenshots and apps appear once the device is ready.</Text>
        )}
      </Stack>
      <StartRunModal deviceId={device.id} macros={macros} opened={running} onClose={() => setRunning(false)} />
      {state === 'ready' && <CropTemplateModal deviceId={device.id} opened={cropping} onClose={() => setCropping(false)} />}
    </Card>
  );
}
