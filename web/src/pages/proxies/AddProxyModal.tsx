// Adding one proxy: address, scheme and credentials; for a provider gateway also the
// targeting (countries, region, ASN). The password is stored encrypted and never shown.
import { Button, Group, Modal, NumberInput, PasswordInput, Select, SimpleGrid, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import type { Proxy } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { addProxy } from './proxies-api';

const GATEWAYS: NonNullable<Proxy['gateway']>[] = ['brightdata', 'oxylabs', 'decodo', 'iproyal', 'soax'];

export function AddProxyModal({ opened, onClose, onAdded }: { opened: boolean; onClose: () => void; onAdded: (proxy: Proxy) => void }) {
  const [host, setHost] = useState('');
  const [port, setPort] = useState<string | number>('');
  const [scheme, setScheme] = useState<Proxy['scheme']>('http');
  const [label, setLabel] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [sessionType, setSessionType] = useState<Proxy['session_type']>('sticky');
  const [gateway, setGateway] = useState<Proxy['gateway'] | null>(null);
  const [countries, setCountries] = useState<string[]>([]);
  const [excluded, setExcluded] = useState<string[]>([]);
  const [city, setCity] = useState('');
  const add = useAction(async () => {
    const body = {
      host,
      port: Number(port),
      scheme,
      session_type: sessionType,
      ...(label ? { label } : {}),
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
      ...(gateway ? { gateway, ...(countries.length ? { target_countries: countries } : {}), ...(excluded.length ? { exclude_countries: excluded } : {}), ...(city ? { target_city: city } : {}) } : {}),
    };
    onAdded(await addProxy(body));
    onClose();
  });
  useEffect(() => {
    if (!opened) return;
    setHost(''); setPort(''); setScheme('http'); setLabel(''); setUsername(''); setPassword('');
    setSessionType('sticky'); setGateway(null); setCountries([]); setExcluded([]); setCity('');
    add.reset();
  }, [opened]); // the action's identity is stable
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void add.run();
  };
  return (
    <Modal opened={opened} onClose={onClose} size="lg" title={<Text fw={650}>Add a proxy</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={add.error} title="The proxy was not added" />
          <SimpleGrid cols={3}>
            <Select label="Scheme" allowDeselect={false} value={scheme} onChange={(v) => setScheme((v ?? 'http') as Proxy['scheme'])} data={['http', 'https', 'socks5']} />
            <TextInput label="Host" required value={host} onChange={(e) => setHost(e.currentTarget.value)} data-autofocus />
            <NumberInput label="Port" required min={1} max={65535} allowDecimal={false} value={port} onChange={setPort} />
          </SimpleGrid>
          <TextInput label="Label" description="Optional" maxLength={100} value={label} onChange={(e) => setLabel(e.currentTarget.value)} />
          <SimpleGrid cols={2}>
            <TextInput label="Username" description="Optional" autoComplete="off" value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
            <PasswordInput label="Password" description="Optional; stored encrypted" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          </SimpleGrid>
          <SimpleGrid cols={2}>
            <Select label="Session" allowDeselect={false} value={sessionType} onChange={(v) => setSessionType((v ?? 'sticky') as Proxy['session_type'])}
              data={[{ value: 'sticky', label: 'Sticky (same exit)' }, { value: 'rotating', label: 'Rotating' }]} />
            <Select label="Provider gateway" description="Only for a provider's gateway" placeholder="A plain proxy" clearable value={gateway ?? null} onChange={(v) => setGateway(v as Proxy['gateway'] | null)} data={GATEWAYS} />
          </SimpleGrid>
          {gateway && (
            <SimpleGrid cols={3}>
              <TagsInput label="Countries" description="Two-letter codes" value={countries} onChange={setCountries} />
              <TagsInput label="Not from" description="Two-letter codes" value={excluded} onChange={setExcluded} />
              <TextInput label="City" description="Optional" value={city} onChange={(e) => setCity(e.currentTarget.value)} />
            </SimpleGrid>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={add.pending}>Add proxy</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
