// Creating a group (name, kind, description) or changing one (name, description; the kind
// is fixed at creation).
import { Button, Group, Modal, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { DeviceGroup } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { createGroup, updateGroup } from './devices-api';

export function GroupModal({ group, opened, onClose, onSaved }: { group: DeviceGroup | null; opened: boolean; onClose: () => void; onSaved: (group: DeviceGroup) => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'byod' | 'cloud'>('byod');
  const [description, setDescription] = useState('');
  const save = useAction(async () => {
    const saved = group
      ? await updateGroup(group.id, { name, description: description.trim() ? description : null })
      : await createGroup({ name, kind, ...(description.trim() ? { description } : {}) });
    onSaved(saved);
    onClose();
  });
  useEffect(() => {
    if (!opened) return;
    setName(group?.name ?? '');
    setKind(group?.kind ?? 'byod');
    setDescription(group?.description ?? '');
    save.reset();
  }, [opened, group]); // the action's identity is stable
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={650}>{group ? `Edit “${group.name}”` : 'New group'}</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={save.error} title="The group was not saved" />
          <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          {!group && (
            <Stack gap={6}>
              <Text size="sm" fw={500} id="group-kind-label">Kind</Text>
              <SegmentedControl aria-labelledby="group-kind-label" value={kind} onChange={(v) => setKind(v === 'cloud' ? 'cloud' : 'byod')}
                data={[{ value: 'byod', label: 'Devices on my machine' }, { value: 'cloud', label: 'Cloud devices' }]} />
            </Stack>
          )}
          <Textarea label="Description" description="Optional" autosize minRows={2} maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.pending}>{group ? 'Save group' : 'Create group'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
