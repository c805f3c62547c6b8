// The live view: the MJPEG route in an <img> (same origin, so the session cookie goes with
// it; the console's CSP allows img-src 'self'). Clicking the picture taps the device there:
// the click is mapped from the picture's size on the page to device pixels (the size of a
// full screenshot, read once), and sent to `POST /api/hosted/devices/{id}/tap` (our extension,
// docs/cloud-devices.md). A tap while a run is active answers 409 device_busy, shown as is.
import { Stack, Text, UnstyledButton } from '@mantine/core';
import { type MouseEvent, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useAction, useAsync } from '../../../lib/use-async';
import { liveUrl, screenSize, tap } from './cloud-api';

const clamp = (value: number, max: number) => Math.min(max - 1, Math.max(0, Math.floor(value)));

export function LiveView({ deviceId }: { deviceId: number }) {
  const size = useAsync(() => screenSize(deviceId), [deviceId]);
  const [said, setSaid] = useState<string>();
  const tapping = useAction((x: number, y: number) => tap(deviceId, x, y));

  const onClick = async (event: MouseEvent<HTMLButtonElement>) => {
    if (!size.data) return;
    const picture = event.currentTarget.querySelector('img');
    if (!picture) return;
    const box = picture.getBoundingClientRect();
    // A keyboard press has no pointer position: it taps the middle of the screen.
    const [fx, fy] = event.detail === 0 ? [0.5, 0.5] : [(event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height];
    const x = clamp(fx * size.data.width, size.data.width);
    const y = clamp(fy * size.data.height, size.data.height);
    const outcome = await tapping.run(x, y);
    if (outcome.ok) {
      const hit = outcome.value.element;
      setSaid(`Tapped at ${x}, ${y}${hit ? `: ${hit.text || hit.content_desc || hit.resource_id || hit.element_id}` : ' (nothing clickable there)'}.`);
    }
  };

  return (
    <Stack gap={6} align="flex-start">
      <Text size="sm" fw={600} id={`live-${deviceId}`}>Live view</Text>
      <UnstyledButton
        onClick={(e) => void onClick(e)}
        disabled={!size.data || tapping.pending}
        aria-describedby={`live-${deviceId}-help`}
        aria-label="Live view of the device screen: click to tap the device there"
        style={{ cursor: size.data ? 'crosshair' : 'wait', border: '1px solid var(--mantine-color-gray-4)', borderRadius: 8, overflow: 'hidden', lineHeight: 0 }}
      >
        <img src={liveUrl(deviceId)} alt="The device screen, live" width={240} height={533} style={{ display: 'block', width: 240, height: 'auto', aspectRatio: size.data ? `${size.data.width} / ${size.data.height}` : '9 / 20', background: '#111' }} data-testid="live-view" />
      </UnstyledButton>
      <Text size="xs" c="dimmed" id={`live-${deviceId}-help`}>
        {size.data ? `Click the picture to tap the device there (${size.data.width}×${size.data.height} px).` : 'Reading the screen size…'}
      </Text>
      {said && <Text size="xs" role="status">{said}</Text>}
      <ErrorAlert error={tapping.error ?? size.error} title="Could not tap" />
    </Stack>
  );
}
