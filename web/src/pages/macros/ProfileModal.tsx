// Creating or changing a settings profile: its name and its arguments (a JSON object; the
// whole object replaces the stored one). `Default` keeps its name.
import { Button, Group, JsonInput, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { Profile } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { createProfile, updateProfile } from './macros-api';

type Args = Profile['args'];

function parseArgs(text: string): { ok: true; value: Args } | { ok: false; error: string } {
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'Arguments are a JSON object, e.g. {"count": 3}.' };
    return { ok: true, value: value as Args };
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : 'cannot be read'}` };
  }
}

export function ProfileModal({ macroId, profile, opened, onClose, onSaved }: { macroId: number; profile: Profile | null; opened: boolean; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState('');
  const [args, setArgs] = useState('{}');
  const parsed = parseArgs(args);
  const save = useAction(async () => {
    if (!parsed.ok) return;
    if (profile) {
      const body = profile.is_default ? { args: parsed.value } : { name, args: parsed.value };
      await updateProfile(profile.id, body);
    } else {
      await createProfile({ macro_id: macroId, name, args: parsed.value });
    }
    onSaved();
    onClose();
  });
  useEffect(() => {
    if (!opened) return;
    setName(profile?.name ?? '');
    setArgs(JSON.stringify(profile?.args ?? {}, null, 2));
    save.reset();
  }, [opened, profile]); // the action's identity is stable
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  return (
    <Modal opened={opened} onClose={onClose} size="lg" title={<Text fw={650}>{profile ? `Edit profile “${profile.name}”` : 'New settings profile'}</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={save.error} title="The profile was not saved" />
          <TextInput
            label="Name"
            required
            maxLength={100}
            value={name}
            disabled={profile?.is_default}
            description={profile?.is_default ? 'The Default profile cannot be renamed.' : 'Unique among this macro’s profiles.'}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
          />
          <JsonInput
            label="Arguments"
            description="Values keyed by argument name (at most 64 KB). Saving replaces the whole set."
            autosize
            minRows={6}
            maxRows={20}
            value={args}
            onChange={setArgs}
            error={parsed.ok ? undefined : parsed.error}
           
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.pending} disabled={!parsed.ok}>{profile ? 'Save profile' : 'Create profile'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
