// "Crop from the live view": a full-size screenshot of the cloud device in a dialog, where a
// person drags a rectangle (or types it, in device pixels: the keyboard's way) and saves it
// into the image library as a template (POST /api/images/crop, source "crop"). The service
// cuts the rectangle from the screen as it is when Save is pressed, so the picture is taken
// again on "Take a new picture" when the screen moved on.
import { Anchor, Button, Group, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { Link } from '../../../app/router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useAction } from '../../../lib/use-async';
import { cropImage } from '../../images/images-api';
import { screenshotBlob } from './cloud-api';

/** The service refuses a template smaller than this a side (it cannot be matched). */
const MIN_SIDE = 8;
const PREVIEW_MAX = 160;

interface Shot {
  url: string;
  width: number;
  height: number;
}
interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function CropTemplateModal({ deviceId, opened, onClose }: { deviceId: number; opened: boolean; onClose: () => void }) {
  const [shot, setShot] = useState<Shot | null>(null);
  const [rect, setRect] = useState<Rect | null>(null);
  const [name, setName] = useState('');
  const [saved, setSaved] = useState<{ id: string; name: string } | null>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const take = useAction(async () => {
    const blob = await screenshotBlob(deviceId);
    const bitmap = await createImageBitmap(blob);
    const next = { url: URL.createObjectURL(blob), width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return next;
  });
  const save = useAction(cropImage);

  const refresh = async () => {
    const outcome = await take.run();
    if (outcome.ok) setShot(outcome.value);
  };
  useEffect(() => {
    if (opened) void refresh();
    else {
      setRect(null);
      setSaved(null);
      save.reset();
    }
    // Only on opening and closing.
  }, [opened]);
  useEffect(() => () => {
    if (shot) URL.revokeObjectURL(shot.url);
  }, [shot]);

  /** The pointer's place on the picture, in device pixels. */
  const devicePoint = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return {
      x: clamp(Math.round(((event.clientX - box.left) / box.width) * shot!.width), 0, shot!.width),
      y: clamp(Math.round(((event.clientY - box.top) / box.height) * shot!.height), 0, shot!.height),
    };
  };
  const onDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!shot || event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = devicePoint(event);
    setRect({ ...drag.current, w: 0, h: 0 });
    setSaved(null);
  };
  const onMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const at = devicePoint(event);
    const start = drag.current;
    setRect({ x: Math.min(start.x, at.x), y: Math.min(start.y, at.y), w: Math.abs(at.x - start.x), h: Math.abs(at.y - start.y) });
  };
  const onUp = () => {
    drag.current = null;
  };
  const setSide = (key: keyof Rect, value: number | string) => {
    if (!shot) return;
    const base = rect ?? { x: 0, y: 0, w: MIN_SIDE, h: MIN_SIDE };
    setRect({ ...base, [key]: Math.max(0, Math.floor(Number(value) || 0)) });
    setSaved(null);
  };

  const inside = shot && rect && rect.x + rect.w <= shot.width && rect.y + rect.h <= shot.height;
  const usable = Boolean(inside && rect && rect.w >= MIN_SIDE && rect.h >= MIN_SIDE);
  const submit = async () => {
    if (!rect || !usable) return;
    const outcome = await save.run({ device_id: deviceId, ...rect, name: name.trim() });
    if (outcome.ok) setSaved({ id: outcome.value.id, name: outcome.value.name });
  };
  const scale = rect && rect.w > 0 && rect.h > 0 ? Math.min(PREVIEW_MAX / rect.w, PREVIEW_MAX / rect.h, 4) : 1;

  return (
    <Modal opened={opened} onClose={onClose} title="Crop a template from the screen" size="auto" centered>
      <Group align="flex-start" gap="lg" wrap="nowrap">
        <Stack gap={6}>
          <div
            role="presentation"
            data-testid="crop-surface"
            onPointerDown={onDown}
            onPointerMove={onMove}
            onPointerUp={onUp}
            onPointerCancel={onUp}
            style={{ position: 'relative', height: '62vh', aspectRatio: shot ? `${shot.width} / ${shot.height}` : '9 / 20', background: '#111', cursor: shot ? 'crosshair' : 'wait', touchAction: 'none', userSelect: 'none', border: '1px solid var(--mantine-color-gray-4)' }}
          >
            {shot && <img src={shot.url} alt="The device screen to crop from" draggable={false} style={{ display: 'block', width: '100%', height: '100%' }} />}
            {shot && rect && rect.w > 0 && rect.h > 0 && (
              <div
                data-testid="crop-selection"
                style={{
                  position: 'absolute',
                  left: `${(rect.x / shot.width) * 100}%`,
                  top: `${(rect.y / shot.height) * 100}%`,
                  width: `${(rect.w / shot.width) * 100}%`,
                  height: `${(rect.h / shot.height) * 100}%`,
                  // Pink inside white: visible on dark and light screens alike.
                  border: '2px solid #ff3b8b',
                  outline: '1px solid #ffffff',
                  background: 'rgba(255, 59, 139, 0.12)',
                  pointerEvents: 'none',
                }}
              />
            )}
          </div>
          <Button size="xs" variant="default" loading={take.pending} onClick={() => void refresh()}>Take a new picture</Button>
        </Stack>
        <Stack gap="sm" w={280}>
          <Text size="sm">Drag a rectangle around the button or icon a macro should find, or type it in device pixels. Crop tightly: the less background, the surer the match.</Text>
          <Group gap="xs" grow>
            {(['x', 'y', 'w', 'h'] as const).map((key) => (
              <NumberInput key={key} label={{ x: 'Left', y: 'Top', w: 'Width', h: 'Height' }[key]} size="xs" min={0} max={shot ? (key === 'x' || key === 'w' ? shot.width : shot.height) : undefined} allowDecimal={false} hideControls value={rect ? rect[key] : ''} onChange={(value) => setSide(key, value)} disabled={!shot} />
            ))}
          </Group>
          {rect && !usable && rect.w + rect.h > 0 && (
            <Text size="xs" c="red.8">{inside ? `A template needs at least ${MIN_SIDE} pixels a side.` : 'The rectangle must lie inside the screen.'}</Text>
          )}
          {shot && rect && usable && (
            <Stack gap={4}>
              <Text size="xs" fw={600}>Preview ({rect.w}×{rect.h} px)</Text>
              <div
                role="img"
                aria-label="The cropped part"
                data-testid="crop-preview"
                style={{ width: rect.w * scale, height: rect.h * scale, backgroundImage: `url(${shot.url})`, backgroundSize: `${shot.width * scale}px ${shot.height * scale}px`, backgroundPosition: `${-rect.x * scale}px ${-rect.y * scale}px`, imageRendering: scale > 1 ? 'pixelated' : 'auto', border: '1px solid var(--mantine-color-gray-4)' }}
              />
            </Stack>
          )}
          <TextInput label="Name" placeholder="Play button" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} />
          <ErrorAlert error={take.error ?? save.error} title={take.error ? 'Could not take a picture of the screen' : 'The template was not saved'} />
          {saved && (
            <Text size="sm" role="status">
              Saved “{saved.name}” as <span className="mono">{saved.id}</span>. <Anchor component={Link} to="/images" size="sm">Open the image library</Anchor>
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Close</Button>
            <Button onClick={() => void submit()} loading={save.pending} disabled={!usable || name.trim() === ''}>Save to library</Button>
          </Group>
        </Stack>
      </Group>
    </Modal>
  );
}
