// API keys: create (with the AI-client preset), list with state and last use, revoke.
import { Badge, Button, Card, Group, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { ApiKey } from '../../api/types';
import { setQuery, useLocation } from '../../app/router';
import { Confirm } from '../../components/Confirm';
import { Empty } from '../../components/Empty';
import { ErrorAlert } from '../../components/ErrorAlert';
import { KeyIcon, PlusIcon, SparkIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Pager, pageFrom } from '../../components/Pager';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { CreateKeyModal, type KeyPreset } from './CreateKeyModal';

const PAGE_SIZE = 20;

export function ApiKeysPage() {
  const keys = useAsync(() => unwrap(api.GET('/api/api-keys')), []);
  const [dialog, setDialog] = useState<KeyPreset | null>(null);
  const { query } = useLocation();
  const page = pageFrom(query);
  const items = keys.data?.items ?? [];
  const active = items.filter((k) => k.state === 'Active').length;
  const shown = items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let scripts, the svc command line and AI clients act as you. Each key's scopes limit what it can do; a key with no scopes has full access."
        actions={
          <>
            <Button variant="default" leftSection={<SparkIcon size={16} />} onClick={() => setDialog('ai-client')}>AI client key</Button>
            <Button leftSection={<PlusIcon size={16} />} onClick={() => setDialog('custom')}>Create key</Button>
          </>
        }
      />
      <ErrorAlert error={keys.error} title="Could not load your keys" />
      <Card p={0}>
        <Group justify="space-between" px="lg" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Text fw={600}>Your keys</Text>
          <Text size="sm" c="dimmed">{active} of 25 active</Text>
        </Group>
        {keys.loading && !keys.data ? (
          <Loading label="Loading keys…" />
        ) : items.length === 0 ? (
          <Empty icon={<KeyIcon size={22} />} title="No API keys yet" action={<Button onClick={() => setDialog('custom')}>Create your first key</Button>}>
            Create a key to call the API from a script, push code with svc, or connect an AI client.
          </Empty>
        ) : (
          <Table.ScrollContainer minWidth={880}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Scopes</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th><span className="visually-hidden">Actions</span></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((key) => <KeyRow key={key.id} apiKey={key} onRevoked={keys.reload} />)}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {items.length > 0 && <Pager noun="keys" info={{ page, page_size: PAGE_SIZE, total_rows: items.length, total_pages: Math.ceil(items.length / PAGE_SIZE) }} onPage={(p) => setQuery({ page: p })} />}
      <CreateKeyModal opened={dialog !== null} preset={dialog ?? 'custom'} onClose={() => setDialog(null)} onCreated={keys.reload} />
    </>
  );
}

function KeyRow({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) {
  const revoke = async () => {
    await unwrap(api.DELETE('/api/api-keys/{id}', { params: { path: { id: apiKey.id } } }));
    onRevoked();
  };
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>{apiKey.name}</Text>
      </Table.Td>
      <Table.Td><Text className="mono">{apiKey.prefix}…</Text></Table.Td>
      <Table.Td>
        {apiKey.scopes.length === 0 ? (
          <Badge variant="outline" color="indigo" tt="none">Full access</Badge>
        ) : (
          <Group gap={4}>{apiKey.scopes.map((s) => <Badge key={s} variant="light" color="gray" tt="none">{s}</Badge>)}</Group>
        )}
      </Table.Td>
      <Table.Td><StatusBadge value={apiKey.state} /></Table.Td>
      <Table.Td><Text size="sm"><Time value={apiKey.last_used_at} empty="Never" /></Text></Table.Td>
      <Table.Td><Text size="sm">{apiKey.expires_at ? <Time value={apiKey.expires_at} /> : 'Never'}</Text></Table.Td>
      <Table.Td ta="right">
        {apiKey.state === 'Active' && (
          <Confirm
            title="Revoke this key?"
            confirmLabel="Revoke key"
            onConfirm={revoke}
            trigger={(open) => <Button size="xs" variant="subtle" color="red" onClick={open} aria-label={`Revoke ${apiKey.name}`}>Revoke</Button>}
          >
            “{apiKey.name}” ({apiKey.prefix}…) stops working at once: the next request with it gets 401. This cannot be undone.
          </Confirm>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
