// The live view: the MJPEG route in an <img> (same origin, so the session cookie goes with
// it; the console's CSP allows img-src 'self'). Clicking the picture taps the device there:
// the click is mapped from the picture's size on the page to device pixels (the size of a
// full screenshot, read once by the parent), and sent to `POST /api/hosted/devices/{id}/tap`
// (our extension, docs/cloud-devices.md). A tap while a run is active answers 409
// device_busy, shown as is. While recording (`recorder`), the tap route is never used: a
// click, a long click or a drag is handed to the recorder as a gesture (gesture.ts).
import { Stack, Text, UnstyledButton } from '@mantine/core';
import { type MouseEvent, type PointerEvent, useRef, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { type AsyncState, useAction } from '../../../lib/use-async';
import { liveUrl, tap } from './cloud-api';
import { devicePoint, type Gesture, gestureOf, type Point, type Size } from './gesture';

export interface LiveRecorder {
  /** The next click picks an element for a check instead of touching the device. */
  picking: boolean;
  busy: boolean;
  onGesture(gesture: Gesture): void;
}

const boxOf = (button: HTMLElement) => (button.querySelector('img') ?? button).getBoundingClientRect();

export function LiveView({ deviceId, size, recorder }: { deviceId: number; size: AsyncState<Size | undefined>; recorder?: LiveRecorder }) {
  const [said, setSaid] = useState<string>();
  const tapping = useAction((x: number, y: number) => tap(deviceId, x, y));
  const press = useRef<{ at: Point; time: number } | null>(null);
  const screen = size.data;

  const onClick = async (event: MouseEvent<HTMLButtonElement>) => {
    if (!screen) return;
    // A keyboard press has no pointer position: it acts on the middle of the screen.
    const middle = { x: Math.floor(screen.width / 2), y: Math.floor(screen.height / 2) };
    if (recorder) {
      // Pointer presses are told by pointerdown/pointerup; only the keyboard's click is left here.
      if (event.detail === 0) recorder.onGesture({ type: 'tap', ...middle });
      return;
    }
    const { x, y } = event.detail === 0 ? middle : devicePoint({ x: event.clientX, y: event.clientY }, boxOf(event.currentTarget), screen);
    const outcome = await tapping.run(x, y);
    if (outcome.ok) {
      const hit = outcome.value.element;
      setSaid(`Tapped at ${x}, ${y}${hit ? `: ${hit.text || hit.content_desc || hit.resource_id || hit.element_id}` : ' (nothing clickable there)'}.`);
    }
  };
  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (!recorder || !screen || recorder.busy || event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    press.current = { at: devicePoint({ x: event.clientX, y: event.clientY }, boxOf(event.currentTarget), screen), time: performance.now() };
  };
  const onPointerUp = (event: PointerEvent<HTMLButtonElement>) => {
    const start = press.current;
    press.current = null;
    if (!recorder || !screen || !start) return;
    const end = devicePoint({ x: event.clientX, y: event.clientY }, boxOf(event.currentTarget), screen);
    const gesture = gestureOf(start.at, end, performance.now() - start.time, screen);
    // A pick is a place, whatever the hand did.
    recorder.onGesture(recorder.picking ? { type: 'tap', x: start.at.x, y: start.at.y } : gesture);
  };

  const label = !recorder
    ? 'Live view of the device screen: click to tap the device there'
    : recorder.picking
      ? 'Live view of the device screen: click the element to wait for (nothing is sent to the device)'
      : 'Live view of the device screen, recording: click to tap, hold to long-press, drag to swipe';
  const help = !screen
    ? 'Reading the screen size…'
    : !recorder
      ? `Click the picture to tap the device there (${screen.width}×${screen.height} px).`
      : recorder.picking
        ? 'Click the element the macro should wait for.'
        : 'Click to tap, hold to long-press, drag to swipe.';

  return (
    <Stack gap={6} align="flex-start">
      <Text size="sm" fw={600} id={`live-${deviceId}`}>Live view</Text>
      <UnstyledButton
        onClick={(e) => void onClick(e)}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => { press.current = null; }}
        disabled={!screen || tapping.pending || Boolean(recorder?.busy)}
        aria-describedby={`live-${deviceId}-help`}
        aria-label={label}
        data-picking={recorder?.picking || undefined}
        className="live-view"
        style={{ cursor: !screen ? 'wait' : recorder?.picking ? 'cell' : 'crosshair' }}
      >
        <img src={liveUrl(deviceId)} alt="The device screen, live" width={240} height={533} draggable={false} style={{ display: 'block', width: 240, height: 'auto', aspectRatio: screen ? `${screen.width} / ${screen.height}` : '9 / 20', background: '#111' }} data-testid="live-view" />
      </UnstyledButton>
      <Text size="xs" c="dimmed" id={`live-${deviceId}-help`}>{help}</Text>
      {said && !recorder && <Text size="xs" role="status">{said}</Text>}
      <ErrorAlert error={(recorder ? undefined : tapping.error) ?? size.error} title={size.error ? 'Could not read the screen size' : 'Could not tap'} />
    </Stack>
  );
}
