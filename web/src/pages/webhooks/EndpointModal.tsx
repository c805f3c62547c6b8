// Adding or changing a webhook endpoint: its HTTPS address, the events it takes and which
// devices' events reach it. A new endpoint's signing secret is shown once.
import { Button, Group, Modal, MultiSelect, SegmentedControl, Stack, Switch, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { WebhookEndpoint } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SecretOnce } from '../../components/SecretOnce';
import { useAction } from '../../lib/use-async';
import type { ScopeChoices } from './scope-choices';
import { createEndpoint, updateEndpoint } from './webhooks-api';

const EVENT_SUGGESTIONS = ['*', 'macro.*', 'macro.started', 'macro.completed', 'macro.failed', 'macro.stopped', 'custom.*'];
type ScopeMode = WebhookEndpoint['scope_mode'];

export function EndpointModal({ endpoint, opened, choices, onClose, onSaved }: { endpoint: WebhookEndpoint | null; opened: boolean; choices: ScopeChoices; onClose: () => void; onSaved: () => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [eventTypes, setEventTypes] = useState<string[]>(['*']);
  const [scopeMode, setScopeMode] = useState<ScopeMode>('all');
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [deviceIds, setDeviceIds] = useState<string[]>([]);
  const [enabled, setEnabled] = useState(true);
  const [secret, setSecret] = useState<{ secret: string; warning: string } | null>(null);
  const save = useAction(async () => {
    const scope = {
      scope_mode: scopeMode,
      ...(scopeMode === 'groups' ? { scope_group_ids: groupIds.map(Number) } : {}),
      ...(scopeMode === 'devices' ? { scope_device_ids: deviceIds.map(Number) } : {}),
    };
    if (endpoint) {
      await updateEndpoint(endpoint.id, { url, description, event_types: eventTypes, enabled, ...scope });
      onSaved();
      onClose();
    } else {
      const created = await createEndpoint({ url, ...(description ? { description } : {}), event_types: eventTypes, ...scope });
      setSecret({ secret: created.secret, warning: created.warning });
      onSaved();
    }
  });
  useEffect(() => {
    if (!opened) return;
    setUrl(endpoint?.url ?? 'https://');
    setDescription(endpoint?.description ?? '');
    setEventTypes(endpoint?.event_types ?? ['*']);
    setScopeMode(endpoint?.scope_mode ?? 'all');
    setGroupIds((endpoint?.scope_group_ids ?? []).map(String));
    setDeviceIds((endpoint?.scope_device_ids ?? []).map(String));
    setEnabled(endpoint?.enabled ?? true);
    setSecret(null);
    save.reset();
  }, [opened, endpoint]); // the action's identity is stable
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  return (
    <Modal opened={opened} onClose={onClose} size="lg" title={<Text fw={650}>{secret ? 'Endpoint added' : endpoint ? 'Edit endpoint' : 'Add an endpoint'}</Text>}>
      {secret ? (
        <Stack>
          <SecretOnce label="Signing secret" secret={secret.secret} note={secret.warning} />
          <Group justify="flex-end"><Button onClick={onClose}>Done</Button></Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <ErrorAlert error={save.error} title="The endpoint was not saved" />
            <TextInput label="URL" description="HTTPS; private and internal addresses are refused" required value={url} onChange={(e) => setUrl(e.currentTarget.value)} data-autofocus />
            <Textarea label="Description" description="Optional, up to 255 characters" autosize minRows={1} maxLength={255} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
            <TagsInput label="Event types" description="* for every event; patterns like macro.* or custom.* work" data={EVENT_SUGGESTIONS} value={eventTypes} onChange={setEventTypes} clearable />
            <Stack gap={6}>
              <Text size="sm" fw={500} id="scope-label">Events from</Text>
              <SegmentedControl aria-labelledby="scope-label" value={scopeMode} onChange={(v) => setScopeMode(v as ScopeMode)}
                data={[{ value: 'all', label: 'All devices' }, { value: 'groups', label: 'Some groups' }, { value: 'devices', label: 'Some devices' }]} />
            </Stack>
            {scopeMode === 'groups' && <MultiSelect label="Groups" required searchable data={choices.groups} value={groupIds} onChange={setGroupIds} placeholder="Choose groups" />}
            {scopeMode === 'devices' && <MultiSelect label="Devices" required searchable data={choices.devices} value={deviceIds} onChange={setDeviceIds} placeholder="Choose devices" />}
            {endpoint && <Switch label="Enabled" description="Turning a disabled endpoint back on clears its failure streak" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>Cancel</Button>
              <Button type="submit" loading={save.pending}>{endpoint ? 'Save endpoint' : 'Add endpoint'}</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
