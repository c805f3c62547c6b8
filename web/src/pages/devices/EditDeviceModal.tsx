// Changing a device: its name, group, the macro it follows and that macro's profile. With
// no profile picked the device follows the macro's Default profile, which the service picks
// when the macro changes.
import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { Device } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction, useAsync } from '../../lib/use-async';
import type { Lookups } from './lookups';
import { listProfiles } from '../macros/macros-api';
import { updateDevice } from './devices-api';

const idOrNull = (value: string | null) => (value ? Number(value) : null);

export function EditDeviceModal({ device, lookups, onClose, onSaved }: { device: Device | null; lookups: Lookups; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState('');
  const [groupId, setGroupId] = useState<string | null>(null);
  const [macroId, setMacroId] = useState<string | null>(null);
  const [profileId, setProfileId] = useState<string | null>(null);
  const macro = lookups.macros.find((m) => String(m.id) === macroId);
  const profiles = useAsync(
    () => (macro?.kind === 'python' ? listProfiles(macro.id) : Promise.resolve([])),
    [macro?.id],
  );
  useEffect(() => {
    if (!device) return;
    setName(device.name);
    setGroupId(device.group_id ? String(device.group_id) : null);
    setMacroId(device.macro_id ? String(device.macro_id) : null);
    setProfileId(device.profile_id ? String(device.profile_id) : null);
  }, [device]);
  const save = useAction(async () => {
    if (!device) return;
    // Only what changed is sent: repeating macro_id could move the device back to Default.
    const body: { name?: string; group_id?: number | null; macro_id?: number | null; profile_id?: number | null } = {};
    if (name !== device.name) body.name = name;
    if (idOrNull(groupId) !== (device.group_id ?? null)) body.group_id = idOrNull(groupId);
    if (idOrNull(macroId) !== (device.macro_id ?? null)) body.macro_id = idOrNull(macroId);
    // A profile is sent only when picked from the macro's list; with a new macro and none
    // picked, the service gives the device the macro's Default profile.
    const picked = profiles.data?.find((p) => String(p.id) === profileId);
    if (picked && picked.id !== device.profile_id) body.profile_id = picked.id;
    if (Object.keys(body).length === 0) return onClose();
    await updateDevice(device.id, body);
    onSaved();
    onClose();
  });
  const groupKind = device?.is_hosted ? 'cloud' : 'byod';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  return (
    <Modal opened={device !== null} onClose={() => { save.reset(); onClose(); }} title={<Text fw={650}>Edit “{device?.name}”</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={save.error} title="Not saved" />
          <TextInput label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          <Select label="Group" placeholder="No group" clearable value={groupId} onChange={setGroupId}
            data={lookups.groups.filter((g) => g.kind === groupKind).map((g) => ({ value: String(g.id), label: g.name }))} />
          <Select label="Macro" description="What the device runs" placeholder="No macro" clearable searchable value={macroId}
            onChange={(value) => { setMacroId(value); setProfileId(null); }}
            data={lookups.macros.map((m) => ({ value: String(m.id), label: `${m.name} (${m.kind === 'python' ? 'Python' : 'block'})` }))} />
          {macro?.kind === 'python' && (
            <Select label="Settings profile" description="Empty: the macro's Default profile" placeholder="Default" clearable value={profileId} onChange={setProfileId}
              data={(profiles.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))} />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.pending}>Save device</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
