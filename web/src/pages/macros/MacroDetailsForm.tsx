// Renaming a macro and changing its description (PUT /api/macros/{id}).
import { Button, Card, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { Macro } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { TEXT } from '../../theme';
import { updateMacro } from './macros-api';

export function MacroDetailsForm({ macro, onSaved }: { macro: Macro; onSaved: () => void }) {
  const [name, setName] = useState(macro.name);
  const [description, setDescription] = useState(macro.description ?? '');
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await updateMacro(macro.id, { name, description });
    setSaved(true);
    onSaved();
  });
  const changed = name !== macro.name || description !== (macro.description ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void save.run();
  };
  return (
    <Card maw={720}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={save.error} title="Not saved" />
          <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Textarea label="Description" autosize minRows={3} maxLength={2000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Group justify="flex-end" gap="md">
            {saved && !changed && <Text size="sm" c={TEXT.success} role="status">Saved</Text>}
            <Button type="submit" loading={save.pending} disabled={!changed}>Save changes</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
