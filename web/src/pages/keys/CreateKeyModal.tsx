// Creating a key: name, expiry and scopes (none ticked = full access), or the AI-client
// preset. The answer carries the whole key once; it is shown with a copy button.
import { Alert, Button, Checkbox, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { ExpiresIn, Scope } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SecretOnce } from '../../components/SecretOnce';
import { useAction } from '../../lib/use-async';
import { AI_CLIENT_PRESET, EXPIRY_CHOICES, SCOPE_INFO } from './scopes';
import { createKey } from './keys-api';

export type KeyPreset = 'custom' | 'ai-client';

export function CreateKeyModal({ opened, preset, onClose, onCreated }: { opened: boolean; preset: KeyPreset; onClose: () => void; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [expiresIn, setExpiresIn] = useState<ExpiresIn & string>('90d');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);
  const create = useAction(async () => {
    const result = await createKey({ name, expires_in: expiresIn, scopes });
    setCreated({ key: result.key, name: result.api_key.name });
    onCreated();
  });

  useEffect(() => {
    if (!opened) return;
    setCreated(null);
    create.reset();
    if (preset === 'ai-client') {
      setName(AI_CLIENT_PRESET.name);
      setExpiresIn(AI_CLIENT_PRESET.expires_in);
      setScopes(AI_CLIENT_PRESET.scopes);
    } else {
      setName('');
      setExpiresIn('90d');
      setScopes([]);
    }
    // Reset only when the dialog opens; the actions' identities are stable.
  }, [opened, preset]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };

  return (
    <Modal opened={opened} onClose={onClose} size="lg" title={<Text fw={650}>{created ? 'Your new API key' : preset === 'ai-client' ? 'Create a key for an AI client' : 'Create an API key'}</Text>}>
      {created ? (
        <Stack>
          <SecretOnce label={`Key “${created.name}”`} secret={created.key} />
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <ErrorAlert error={create.error} title="The key was not created" />
            {preset === 'ai-client' && (
              <Alert color="indigo" variant="light">
                The AI-client preset: the key never expires and can control devices, run macros and read maps. Change anything before you create it.
              </Alert>
            )}
            <TextInput label="Name" description="A label for the list, e.g. where the key is used." required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
            <Stack gap={6}>
              <Text size="sm" fw={500} id="expiry-label">Expires</Text>
              <SegmentedControl aria-labelledby="expiry-label" data={EXPIRY_CHOICES} value={expiresIn} onChange={(value) => setExpiresIn(value as ExpiresIn & string)} />
            </Stack>
            <Checkbox.Group
              label="Scopes"
              description={scopes.length === 0 ? 'None ticked: full access, including webhooks, proxies and settings profiles.' : 'The key can do only what is ticked. Scopes cannot be changed later.'}
              value={scopes}
              onChange={(value) => setScopes(value as Scope[])}
            >
              <Stack gap="xs" mt="xs">
                {SCOPE_INFO.map((info) => (
                  <Checkbox key={info.scope} value={info.scope} label={<><Text span fw={500} size="sm">{info.label}</Text> <Text span size="sm" c="dimmed">({info.scope})</Text></>} description={info.reach} />
                ))}
              </Stack>
            </Checkbox.Group>
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={onClose}>Cancel</Button>
              <Button type="submit" loading={create.pending}>Create key</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
