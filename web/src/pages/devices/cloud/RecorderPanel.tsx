// The recorder on a ready cloud device's live view (decisions.md §18): "Record" starts a
// recording; while it lasts, the live view's clicks, long clicks and drags, the text box and
// the BACK/HOME/ENTER buttons go to `POST …/recordings/{rid}/inputs` (never to the tap route),
// each answered with the step it became, listed beside the live view (RecorderSteps). "Wait
// for…" makes the next click pick an element for a check (`POST …/checks`, nothing sent to the
// device). "Save…" makes a macro and recording goes on; "Replay" runs the saved macro as a
// cloud run and opens its page with the trace; "Stop" ends it. A reload finds the recording in
// progress again (`GET /api/hosted/devices/{id}/recording`), with the macros saved from it
// (its `saved`), so Replay works after a reload too.
import { Badge, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError } from '../../../api/errors';
import { navigate } from '../../../app/router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { plural } from '../../../lib/format';
import { type AsyncState, useAction, useAsync } from '../../../lib/use-async';
import { historyIdOf } from '../../runs/runs-api';
import type { Gesture, Size } from './gesture';
import { LiveView } from './LiveView';
import { activeRecording, addCheck, getRecording, replayRecording, sendInput, startRecording, stopRecording } from './recorder-api';
import type { RecordedStep, RecorderInput, RecorderKey, Recording, SavedMacro } from './recorder-types';
import { stepWords } from './recorder-words';
import { RecorderSteps } from './RecorderSteps';
import { SaveRecordingModal } from './SaveRecordingModal';

const KEYS: RecorderKey[] = ['BACK', 'HOME', 'ENTER'];
export function RecorderPanel({ deviceId, size }: { deviceId: number; size: AsyncState<Size | undefined> }) {
  const restored = useAsync(() => activeRecording(deviceId), [deviceId]);
  const [recording, setRecording] = useState<Recording | null>(null);
  const [picking, setPicking] = useState(false);
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<SavedMacro[]>([]);
  const [replayId, setReplayId] = useState<string>('');
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (restored.data) setRecording(restored.data);
  }, [restored.data]);
  const rid = recording?.id;
  const listedSaved = recording?.saved;
  useEffect(() => {
    // A recording found again (a reload, the drawer opened anew): the macros saved from it.
    if (rid) setSaved(listedSaved ?? []);
    // Only when the recording changes: later saves are added as they happen (onSaved).
  }, [rid]);

  const start = useAction(async () => {
    const made = await startRecording(deviceId);
    setRecording(made);
    setSaid('Recording: each input on the live view becomes a step.');
  });
  const added = (step: RecordedStep) => {
    setRecording((r) => (r ? { ...r, steps: [...r.steps.filter((s) => s.seq !== step.seq), step].sort((a, b) => a.seq - b.seq) } : r));
    setSaid(`Step ${step.seq} recorded: ${stepWords(step)}.`);
  };
  /** An input or a check; a recording that ended meanwhile (idle, or elsewhere) is read again. */
  const act = useAction(async (send: () => Promise<RecordedStep>) => {
    try {
      added(await send());
    } catch (error) {
      if (error instanceof ApiError && error.code === 'recording_stopped' && rid) setRecording(await getRecording(rid));
      throw error;
    }
  });
  const stop = useAction(async () => {
    if (!rid) return;
    setRecording(await stopRecording(rid));
    setPicking(false);
    setSaid('Recording stopped.');
  });
  const replay = useAction(async () => {
    const macro = saved.find((m) => String(m.id) === replayId) ?? saved[saved.length - 1];
    if (!rid || !macro) return;
    const run = await replayRecording(rid, macro.id);
    const historyId = await historyIdOf(deviceId, run.execution_id);
    navigate(historyId ? `/runs/${historyId}?cloud_run=${run.id}` : `/runs?device_id=${deviceId}`);
  });

  const live = recording?.state === 'recording';
  const input = async (body: RecorderInput) => (rid ? (await act.run(() => sendInput(rid, body))).ok : false);
  const onGesture = (gesture: Gesture) => {
    if (!rid) return;
    if (picking) {
      setPicking(false);
      const at = gesture.type === 'swipe' ? gesture.from : gesture;
      void act.run(() => addCheck(rid, at.x, at.y));
    } else void input(gesture);
  };
  const sendText = async (event: FormEvent) => {
    event.preventDefault();
    if (text === '') return;
    // The box empties once the text is on the device; a refusal leaves it to send again.
    if (await input({ type: 'text', text })) setText('');
  };
  const onSaved = (macro: SavedMacro) => {
    if (!rid) return;
    setSaved((before) => [...before.filter((m) => m.id !== macro.id), macro]);
    setReplayId(String(macro.id));
  };
  const onDeleted = (seq: number) => {
    setRecording((r) => (r ? { ...r, steps: r.steps.filter((s) => s.seq !== seq) } : r));
    setSaid(`Step ${seq} deleted.`);
  };
  const onChanged = (step: RecordedStep) => {
    setRecording((r) => (r ? { ...r, steps: r.steps.map((s) => (s.seq === step.seq ? step : s)) } : r));
    setSaid(`Step ${step.seq} now: ${stepWords(step)}.`);
  };

  const controls = recording ? (
    <Group gap="xs" role="group" aria-label="Recorder">
      <Badge color={live ? 'red' : 'gray'} variant="light">{live ? 'Recording' : 'Recording stopped'}</Badge>
      {live && <Button size="xs" variant={picking ? 'filled' : 'default'} color={picking ? 'yellow' : undefined} aria-pressed={picking} onClick={() => setPicking((p) => !p)}>Wait for…</Button>}
      {live && <Button size="xs" variant="default" onClick={() => setSaving(true)} disabled={recording.steps.length === 0}>Save…</Button>}
      {saved.length > 1 && (
        <NativeSelect size="xs" aria-label="Macro to replay" value={replayId || String(saved[saved.length - 1].id)} onChange={(e) => setReplayId(e.currentTarget.value)}
          data={saved.map((m) => ({ value: String(m.id), label: `${m.name} (${m.kind === 'python' ? 'code' : 'block'})` }))} />
      )}
      <Button size="xs" variant="light" disabled={saved.length === 0} loading={replay.pending} onClick={() => void replay.run()} title={saved.length === 0 ? 'Save the recording first' : undefined}>Replay</Button>
      {live ? (
        <Button size="xs" variant="default" loading={stop.pending} onClick={() => void stop.run()}>Stop</Button>
      ) : (
        <Button size="xs" loading={start.pending} onClick={() => void start.run()}>Record again</Button>
      )}
    </Group>
  ) : (
    <Group gap="xs">
      <Button size="xs" loading={start.pending} disabled={restored.loading} onClick={() => void start.run()}>Record</Button>
      <Text size="xs" c="dimmed">Do the task once on the live view; each input becomes a step of a new macro.</Text>
    </Group>
  );

  return (
    <Stack gap="sm">
      {controls}
      {said && <Text size="xs" role="status" aria-live="polite">{said}</Text>}
      {picking && <Text size="xs" fw={600}>Pick mode: the next click on the live view picks the element to wait for. It is not sent to the device.</Text>}
      <ErrorAlert error={start.error ?? act.error ?? stop.error ?? replay.error ?? restored.error} title={start.error ? 'Could not start recording' : replay.error ? 'Could not replay' : 'The recorder could not do that'} />
      <Group align="flex-start" gap="lg" wrap="nowrap">
        <Stack gap="xs" w={240} style={{ flex: 'none' }}>
          <LiveView deviceId={deviceId} size={size} recorder={live ? { picking, busy: act.pending, onGesture } : undefined} />
          {live && (
            <>
              <form onSubmit={(e) => void sendText(e)}>
                <Group gap={6} align="flex-end" wrap="nowrap">
                  <TextInput size="xs" label="Text to type" maxLength={10_000} value={text} onChange={(e) => setText(e.currentTarget.value)} style={{ flex: 1 }} />
                  <Button size="xs" type="submit" variant="default" disabled={text === '' || act.pending}>Send text</Button>
                </Group>
              </form>
              <Group gap={6} role="group" aria-label="Keys">
                {KEYS.map((key) => (
                  <Button key={key} size="xs" variant="default" disabled={act.pending} onClick={() => void input({ type: 'key', key })}>{key}</Button>
                ))}
              </Group>
            </>
          )}
        </Stack>
        {recording && (
          <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
            <Title order={4} fz="sm">Steps <Text span size="xs" c="dimmed">({plural(recording.steps.length, 'step')})</Text></Title>
            <RecorderSteps recordingId={recording.id} steps={recording.steps} screen={size.data} editable={live} onChanged={onChanged} onDeleted={onDeleted} />
          </Stack>
        )}
      </Group>
      {recording && <SaveRecordingModal recordingId={recording.id} opened={saving} onClose={() => setSaving(false)} onSaved={onSaved} />}
    </Stack>
  );
}
