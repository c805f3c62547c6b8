// The webhook endpoints: state, what they take, the last success; test, edit, rotate the
// secret, delete. An account holds at most 10, so the list is one page.
import { Alert, Badge, Button, Card, Group, Menu, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { WebhookEndpoint } from '../../api/types';
import { setQuery } from '../../app/router';
import { Confirm } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon, WebhookIcon } from '../../components/icons';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { pageLocally } from '../../lib/paging';
import { SecretOnce } from '../../components/SecretOnce';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { plural } from '../../lib/format';
import { useAction, useAsync } from '../../lib/use-async';
import { TEXT } from '../../theme';
import { EndpointModal } from './EndpointModal';
import { useScopeChoices } from './scope-choices';
import { deleteEndpoint, listEndpoints, regenerateSecret, testEndpoint } from './webhooks-api';

const MAX_ENDPOINTS = 10;

const scopeText = (e: WebhookEndpoint) =>
  e.scope_mode === 'all' ? 'All devices' : e.scope_mode === 'groups' ? `${plural(e.scope_group_ids.length, 'group')}, ${plural(e.scope_device_count, 'device')}` : plural(e.scope_device_ids.length, 'device');

const COLUMNS: Column<WebhookEndpoint>[] = [
  {
    header: 'Endpoint',
    maxWidth: 340,
    cell: (e) => (
      <>
        <Text size="sm" fw={600} truncate="end" className="mono">{e.url}</Text>
        <Text size="xs" c="dimmed" truncate="end">{e.description || `Secret ${e.secret_prefix}…`}</Text>
      </>
    ),
  },
  {
    header: 'State',
    cell: (e) => (
      <>
        <StatusBadge value={e.enabled ? 'enabled' : 'disabled'} label={e.enabled ? 'Enabled' : 'Disabled'} />
        {!e.enabled && e.disabled_reason && <Text size="xs" c="dimmed" mt={2}>{e.disabled_reason === 'gone' ? 'The receiver answered 410 Gone' : `${plural(e.consecutive_failures, 'failure')} in a row`}</Text>}
        {e.enabled && e.consecutive_failures > 0 && <Text size="xs" c={TEXT.warning} mt={2}>{e.consecutive_failures} failing</Text>}
      </>
    ),
  },
  { header: 'Events', cell: (e) => <Group gap={4}>{e.event_types.map((t) => <Badge key={t} variant="light" color="gray" tt="none">{t}</Badge>)}</Group> },
  { header: 'From', cell: (e) => <Text size="sm">{scopeText(e)}</Text> },
  { header: 'Last success', cell: (e) => <Text size="sm"><Time value={e.last_success_at} empty="Never" /></Text> },
];

export function EndpointsTab() {
  const endpoints = useAsync(listEndpoints, []);
  const choices = useScopeChoices();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [notice, setNotice] = useState<{ text: string; endpointId: number } | null>(null);
  const [rotated, setRotated] = useState<{ secret: string; warning: string } | null>(null);
  const test = useAction(async (endpoint: WebhookEndpoint) => {
    const result = await testEndpoint(endpoint.id);
    setNotice({ text: result.message, endpointId: endpoint.id });
  });
  const count = endpoints.data?.length ?? 0;
  return (
    <Stack>
      <ErrorAlert error={test.error} />
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
      <div>
        <ResourceTable
          noun="endpoint"
          list={pageLocally(endpoints, 1, MAX_ENDPOINTS)}
          columns={COLUMNS}
          rowKey={(e) => e.id}
          minWidth={900}
          toolbar={
            <>
              <Text fw={600}>Endpoints <Text span c="dimmed" size="sm">({count} of {MAX_ENDPOINTS})</Text></Text>
              <Button size="sm" leftSection={<PlusIcon size={16} />} onClick={() => setEditing('new')} disabled={count >= MAX_ENDPOINTS}>Add endpoint</Button>
            </>
          }
          empty={{
            icon: <WebhookIcon size={22} />,
            title: 'No endpoints yet',
            body: 'The service sends a signed HTTPS POST to each endpoint when a run starts, ends or fails, and for your custom events.',
            action: <Button onClick={() => setEditing('new')}>Add an endpoint</Button>,
          }}
          rowActions={(e, confirmRemove) => (
            <>
              <Button size="xs" variant="light" loading={test.pending} onClick={() => void test.run(e)} aria-label={`Send test to ${e.url}`}>Send test</Button>
              <Menu position="bottom-end">
                <Menu.Target><Button size="xs" variant="subtle" aria-label={`More actions for ${e.url}`}>More</Button></Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => setEditing(e)}>Edit</Menu.Item>
                  <Menu.Item onClick={() => setRotating(e)}>Regenerate secret</Menu.Item>
                  <Menu.Item color="red" onClick={confirmRemove}>Delete</Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </>
          )}
          remove={{
            noButton: true,
            buttonLabel: (e) => `Delete ${e.url}`,
            title: 'Delete this endpoint?',
            confirmLabel: 'Delete endpoint',
            body: (e) => <>No more events go to {e.url}. Its delivery history stays readable.</>,
            run: async (e) => {
              await deleteEndpoint(e.id);
              endpoints.reload();
            },
          }}
        />
      </div>
      <Confirm title="Regenerate the signing secret?" confirmLabel="Regenerate" danger={false} opened={rotating !== null} onClose={() => setRotating(null)}
        onConfirm={async () => {
          if (!rotating) return;
          setRotated(await regenerateSecret(rotating.id));
          endpoints.reload();
        }}>
        Deliveries are signed with the new secret at once; update your receiver right after.
      </Confirm>
      <EndpointModal endpoint={editing === 'new' ? null : editing} opened={editing !== null} choices={choices} onClose={() => setEditing(null)} onSaved={endpoints.reload} />
    </Stack>
  );
}
