// API keys: create (with the AI-client preset), list with state and last use, revoke.
import { Badge, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { ApiKey } from '../../api/types';
import { useLocation } from '../../app/router';
import { KeyIcon, PlusIcon, SparkIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { pageLocally } from '../../lib/paging';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { CreateKeyModal, type KeyPreset } from './CreateKeyModal';
import { listKeys, revokeKey } from './keys-api';

const PAGE_SIZE = 20;

const COLUMNS: Column<ApiKey>[] = [
  { header: 'Name', cell: (key) => <Text size="sm" fw={600}>{key.name}</Text> },
  { header: 'Key', cell: (key) => <Text className="mono">{key.prefix}…</Text> },
  {
    header: 'Scopes',
    cell: (key) =>
      key.scopes.length === 0 ? (
        <Badge variant="outline" color="indigo" tt="none">Full access</Badge>
      ) : (
        <Group gap={4}>{key.scopes.map((s) => <Badge key={s} variant="light" color="gray" tt="none">{s}</Badge>)}</Group>
      ),
  },
  { header: 'State', cell: (key) => <StatusBadge value={key.state} /> },
  { header: 'Last used', cell: (key) => <Text size="sm"><Time value={key.last_used_at} empty="Never" /></Text> },
  { header: 'Expires', cell: (key) => <Text size="sm">{key.expires_at ? <Time value={key.expires_at} /> : 'Never'}</Text> },
];

export function ApiKeysPage() {
  const keys = useAsync(listKeys, []);
  const [dialog, setDialog] = useState<KeyPreset | null>(null);
  const page = pageFrom(useLocation().query);
  const active = (keys.data ?? []).filter((k) => k.state === 'Active').length;

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
      <ResourceTable
        noun="key"
        list={pageLocally(keys, page, PAGE_SIZE)}
        columns={COLUMNS}
        rowKey={(key) => key.id}
        minWidth={880}
        errorTitle="Could not load your keys"
        toolbar={<><Text fw={600}>Your keys</Text><Text size="sm" c="dimmed">{active} of 25 active</Text></>}
        empty={{
          icon: <KeyIcon size={22} />,
          title: 'No API keys yet',
          body: 'Create a key to call the API from a script, push code with svc, or connect an AI client.',
          action: <Button onClick={() => setDialog('custom')}>Create your first key</Button>,
        }}
        remove={{
          verb: 'Revoke',
          buttonLabel: (key) => `Revoke ${key.name}`,
          allowed: (key) => key.state === 'Active',
          title: 'Revoke this key?',
          confirmLabel: 'Revoke key',
          body: (key) => <>“{key.name}” ({key.prefix}…) stops working at once: the next request with it gets 401. This cannot be undone.</>,
          run: async (key) => {
            await revokeKey(key.id);
            keys.reload();
          },
        }}
      />
      <CreateKeyModal opened={dialog !== null} preset={dialog ?? 'custom'} onClose={() => setDialog(null)} onCreated={keys.reload} />
    </>
  );
}
