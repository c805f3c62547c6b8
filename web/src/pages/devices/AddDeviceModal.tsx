// Adding a device: one on the user's machine (name and ADB port) or a cloud device, and
// optionally the group of its kind it joins.
import { Button, Group, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { Device, DeviceGroup } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { createCloudDevice, createLocalDevice } from './devices-api';

export type DeviceKind = 'local' | 'cloud';

export function AddDeviceModal({ kind, groups, onClose, onCreated }: {
  kind: DeviceKind | null;
  groups: DeviceGroup[];
  onClose: () => void;
  onCreated: (device: Device) => void;
}) {
  const [name, setName] = useState('');
  const [port, setPort] = useState<number | string>(5555);
  const [groupId, setGroupId] = useState<string | null>(null);
  const create = useAction(async () => {
    const group_id = groupId ? Number(groupId) : undefined;
    const device =
      kind === 'cloud'
        ? await createCloudDevice({ name, ...(group_id ? { group_id } : {}) })
        : await createLocalDevice({ name, port: Number(port), ...(group_id ? { group_id } : {}) });
    onCreated(device);
    onClose();
  });
  useEffect(() => {
    if (kind === null) return;
    setName('');
    setPort(5555);
    setGroupId(null);
    create.reset();
  }, [kind]); // the action's identity is stable
  const wanted = kind === 'cloud' ? 'cloud' : 'byod';
  const choices = groups.filter((g) => g.kind === wanted).map((g) => ({ value: String(g.id), label: g.name }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <Modal opened={kind !== null} onClose={onClose} title={<Text fw={650}>{kind === 'cloud' ? 'Add a cloud device' : 'Add a device on your machine'}</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={create.error} title="The device was not added" />
          <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          {kind === 'local' && (
            <NumberInput label="ADB port" description="The port of the device or emulator on your machine (1 to 65535)" required min={1} max={65535} allowDecimal={false} value={port} onChange={setPort} />
          )}
          {kind === 'cloud' && <Text size="sm" c="dimmed">A cloud device starts out stopped; the service places and boots it when it is started.</Text>}
          <Select label="Group" description={`Optional: a ${kind === 'cloud' ? 'cloud' : 'local (byod)'} group`} placeholder="No group" data={choices} value={groupId} onChange={setGroupId} clearable />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={create.pending}>Add device</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
