// The webhook endpoints: state, what they take, the last success; test, edit, rotate the
// secret, delete. An account holds at most 10, so the list is one page.
import { Alert, Badge, Button, Card, Group, Menu, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { WebhookEndpoint } from '../../api/types';
import { setQuery } from '../../app/router';
import { Confirm } from '../../components/Confirm';
import { Empty } from '../../components/Empty';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon, WebhookIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { Pager } from '../../components/Pager';
import { SecretOnce } from '../../components/SecretOnce';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { EndpointModal } from './EndpointModal';
import { type ScopeChoices, useScopeChoices } from './scope-choices';
import { TEXT } from '../../theme';

const scopeText = (e: WebhookEndpoint) =>
  e.scope_mode === 'all' ? 'All devices' : e.scope_mode === 'groups' ? `${e.scope_group_ids.length} group(s), ${e.scope_device_count} device(s)` : `${e.scope_device_ids.length} device(s)`;

export function EndpointsTab() {
  const endpoints = useAsync(() => unwrap(api.GET('/api/webhooks')), []);
  const choices = useScopeChoices();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [notice, setNotice] = useState<{ text: string; endpointId: number } | null>(null);
  const [rotated, setRotated] = useState<{ secret: string; warning: string } | null>(null);
  const test = useAction(async (endpoint: WebhookEndpoint) => {
    const result = await unwrap(api.POST('/api/webhooks/{id}/test', { params: { path: { id: endpoint.id } } }));
    setNotice({ text: result.message, endpointId: endpoint.id });
  });
  const items = endpoints.data?.items ?? [];
  if (endpoints.loading && !endpoints.data) return <Loading label="Loading endpoints…" />;
  return (
    <Stack>
      <ErrorAlert error={endpoints.error ?? test.error} />
      {notice && (
        <Alert color="green" variant="light" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice.text}{' '}
          <Button variant="subtle" size="compact-sm" onClick={() => setQuery({ tab: 'deliveries', endpoint_id: notice.endpointId, status: undefined, page: undefined })}>See its delivery</Button>
        </Alert>
      )}
      {rotated && (
        <Card>
          <SecretOnce label="New signing secret" secret={rotated.secret} note={rotated.warning} />
          <Group justify="flex-end" mt="sm"><Button variant="default" onClick={() => setRotated(null)}>Done</Button></Group>
        </Card>
      )}
      <Card p={0}>
        <Group justify="space-between" px="lg" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Text fw={600}>Endpoints <Text span c="dimmed" size="sm">({items.length} of 10)</Text></Text>
          <Button size="sm" leftSection={<PlusIcon size={16} />} onClick={() => setEditing('new')} disabled={items.length >= 10}>Add endpoint</Button>
        </Group>
        {items.length === 0 ? (
          <Empty icon={<WebhookIcon size={22} />} title="No endpoints yet" action={<Button onClick={() => setEditing('new')}>Add an endpoint</Button>}>
            The service sends a signed HTTPS POST to each endpoint when a run starts, ends or fails, and for your custom events.
          </Empty>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Endpoint</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Events</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>Last success</Table.Th>
                  <Table.Th><span className="visually-hidden">Actions</span></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((endpoint) => (
                  <EndpointRow key={endpoint.id} endpoint={endpoint} choices={choices} testing={test.pending} onTest={() => void test.run(endpoint)} onEdit={() => setEditing(endpoint)} onRotated={setRotated} onChanged={endpoints.reload} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {items.length > 0 && <Pager noun="endpoints" info={{ page: 1, page_size: 10, total_rows: items.length, total_pages: 1 }} onPage={() => undefined} />}
      <EndpointModal endpoint={editing === 'new' ? null : editing} opened={editing !== null} choices={choices} onClose={() => setEditing(null)} onSaved={endpoints.reload} />
    </Stack>
  );
}

function EndpointRow({ endpoint: e, testing, onTest, onEdit, onRotated, onChanged }: {
  endpoint: WebhookEndpoint; choices: ScopeChoices; testing: boolean; onTest: () => void; onEdit: () => void; onRotated: (s: { secret: string; warning: string }) => void; onChanged: () => void;
}) {
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  return (
    <Table.Tr>
      <Table.Td maw={340}>
        <Text size="sm" fw={600} truncate="end" className="mono">{e.url}</Text>
        <Text size="xs" c="dimmed" truncate="end">{e.description || `Secret ${e.secret_prefix}…`}</Text>
      </Table.Td>
      <Table.Td>
        <StatusBadge value={e.enabled ? 'enabled' : 'disabled'} label={e.enabled ? 'Enabled' : 'Disabled'} />
        {!e.enabled && e.disabled_reason && <Text size="xs" c="dimmed" mt={2}>{e.disabled_reason === 'gone' ? 'The receiver answered 410 Gone' : `${e.consecutive_failures} failures in a row`}</Text>}
        {e.enabled && e.consecutive_failures > 0 && <Text size="xs" c={TEXT.warning} mt={2}>{e.consecutive_failures} failing</Text>}
      </Table.Td>
      <Table.Td><Group gap={4}>{e.event_types.map((t) => <Badge key={t} variant="light" color="gray" tt="none">{t}</Badge>)}</Group></Table.Td>
      <Table.Td><Text size="sm">{scopeText(e)}</Text></Table.Td>
      <Table.Td><Text size="sm"><Time value={e.last_success_at} empty="Never" /></Text></Table.Td>
      <Table.Td ta="right">
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="light" loading={testing} onClick={onTest} aria-label={`Send test to ${e.url}`}>Send test</Button>
          <Menu position="bottom-end">
            <Menu.Target><Button size="xs" variant="subtle" aria-label={`More actions for ${e.url}`}>More</Button></Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={onEdit}>Edit</Menu.Item>
              <Menu.Item onClick={() => setConfirm('rotate')}>Regenerate secret</Menu.Item>
              <Menu.Item color="red" onClick={() => setConfirm('delete')}>Delete</Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Confirm title="Regenerate the signing secret?" confirmLabel="Regenerate" danger={false} opened={confirm === 'rotate'} onClose={() => setConfirm(null)}
            onConfirm={async () => { onRotated(await unwrap(api.POST('/api/webhooks/{id}/regenerate-secret', { params: { path: { id: e.id } } }))); onChanged(); }}>
            Deliveries are signed with the new secret at once; update your receiver right after.
          </Confirm>
          <Confirm title="Delete this endpoint?" confirmLabel="Delete endpoint" opened={confirm === 'delete'} onClose={() => setConfirm(null)}
            onConfirm={async () => { await unwrap(api.DELETE('/api/webhooks/{id}', { params: { path: { id: e.id } } })); onChanged(); }}>
            No more events go to {e.url}. Its delivery history stays readable.
          </Confirm>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
