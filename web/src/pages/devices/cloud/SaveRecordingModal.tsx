// "Save": the recording's steps as a new macro, a block macro (§16's steps) or a code macro
// whose src/app.py uses svc_device.locate (`POST …/save {name, kind}`). Saving does not end the
// recording: the dialog names the new macro with a link, and recording goes on.
import { Anchor, Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from '../../../app/router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useAction } from '../../../lib/use-async';
import { saveRecording } from './recorder-api';
import type { SavedMacro, SaveKind } from './recorder-types';

export function SaveRecordingModal({ recordingId, opened, onClose, onSaved }: { recordingId: string; opened: boolean; onClose: () => void; onSaved: (macro: SavedMacro) => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<SaveKind>('block');
  const [saved, setSaved] = useState<SavedMacro | null>(null);
  const save = useAction(() => saveRecording(recordingId, name.trim(), kind));
  useEffect(() => {
    if (!opened) return;
    setSaved(null);
    save.reset();
  }, [opened]); // the action's identity is stable

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const outcome = await save.run();
    if (!outcome.ok) return;
    setSaved(outcome.value);
    onSaved(outcome.value);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={650}>Save the recording as a macro</Text>} centered>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => { setName(e.currentTarget.value); setSaved(null); }} data-autofocus placeholder="Check out a coffee" />
          <Radio.Group label="Kind" value={kind} onChange={(value) => { setKind(value === 'python' ? 'python' : 'block'); setSaved(null); }}>
            <Stack gap={6} mt={6}>
              <Radio value="block" label="Block macro: the steps as a block program you can edit in the console" />
              <Radio value="python" label="Code macro: src/app.py in Python, with svc_device.locate" />
            </Stack>
          </Radio.Group>
          <ErrorAlert error={save.error} title="The recording was not saved" />
          {saved && (
            <Text size="sm" role="status">
              Saved as <Anchor component={Link} to={`/macros/${saved.id}`} size="sm" underline="always">{saved.name}</Anchor> ({saved.kind === 'python' ? 'code' : 'block'} macro {saved.id}). Recording goes on; Replay runs it on this device.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{saved ? 'Done' : 'Cancel'}</Button>
            <Button type="submit" loading={save.pending} disabled={name.trim() === '' || saved !== null}>Save macro</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
