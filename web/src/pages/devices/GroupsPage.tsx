// Device groups: local (byod) and cloud; listed, created, renamed and deleted.
import { Alert, Badge, Button, Card, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { DeviceGroup } from '../../api/types';
import { Link, setQuery, useLocation } from '../../app/router';
import { Confirm } from '../../components/Confirm';
import { Empty } from '../../components/Empty';
import { ErrorAlert } from '../../components/ErrorAlert';
import { GroupIcon, PlusIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Pager, pageFrom } from '../../components/Pager';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { GroupModal } from './GroupModal';
import { TEXT } from '../../theme';

const PAGE_SIZE = 20;
const SORTS = [
  { value: 'name', label: 'Name (A–Z)' },
  { value: '-no_of_devices', label: 'Most devices' },
  { value: '-updated_at', label: 'Recently changed' },
  { value: '-created_at', label: 'Newest first' },
] as const;
type Sort = (typeof SORTS)[number]['value'];

export function KindLabel({ kind }: { kind: 'byod' | 'cloud' }) {
  return (
    <Badge variant="light" color={kind === 'cloud' ? 'cyan' : 'gray'} tt="none">
      {kind === 'cloud' ? 'Cloud' : 'Local (byod)'}
    </Badge>
  );
}

export function GroupsPage() {
  const [editing, setEditing] = useState<DeviceGroup | 'new' | null>(null);
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <>
      <PageHeader
        title="Groups"
        description="Groups collect devices of one kind, on your machine or in the cloud. Webhooks can be scoped to groups."
        actions={<Button leftSection={<PlusIcon size={16} />} onClick={() => setEditing('new')}>New group</Button>}
      />
      {notice && (
        <Alert color="green" variant="light" mb="md" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <GroupList version={version} onEdit={setEditing} onNotice={setNotice} />
      <GroupModal group={editing === 'new' ? null : editing} opened={editing !== null} onClose={() => setEditing(null)} onSaved={(group) => { setNotice(`Saved group “${group.name}” (group ${group.id}).`); setVersion((v) => v + 1); }} />
    </>
  );
}

function GroupList({ version, onEdit, onNotice }: { version: number; onEdit: (group: DeviceGroup | 'new') => void; onNotice: (text: string) => void }) {
  const { query } = useLocation();
  const page = pageFrom(query);
  const name = query.get('name') ?? '';
  const sort = (SORTS.find((s) => s.value === query.get('sort'))?.value ?? 'name') as Sort;
  const description = query.get('description') ?? '';
  const [search, setSearch] = useState(name);
  const [debounced] = useDebouncedValue(search, 300);
  const [aboutSearch, setAboutSearch] = useState(description);
  const [aboutDebounced] = useDebouncedValue(aboutSearch, 300);
  useEffect(() => {
    if (debounced !== name) setQuery({ name: debounced.trim() || undefined, page: undefined });
  }, [debounced, name]);
  useEffect(() => {
    if (aboutDebounced !== description) setQuery({ description: aboutDebounced.trim() || undefined, page: undefined });
  }, [aboutDebounced, description]);
  const groups = useAsync(
    () => unwrap(api.GET('/api/emulator/groups', { params: { query: { page, page_size: PAGE_SIZE, sort, ...(name ? { name } : {}), ...(description ? { description } : {}) } } })),
    [page, name, description, sort, version],
  );
  const rows = groups.data?.rows ?? [];
  const remove = async (group: DeviceGroup) => {
    await unwrap(api.DELETE('/api/emulator/groups/{id}', { params: { path: { id: group.id } } }));
    onNotice(`Deleted group “${group.name}”; its devices stay, with no group.`);
    groups.reload();
  };
  return (
    <>
      <ErrorAlert error={groups.error} title="Could not load groups" />
      <Card p={0}>
        <Group px="lg" py="sm" gap="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <TextInput aria-label="Filter by name" placeholder="Filter by name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={220} />
          <TextInput aria-label="Filter by description" placeholder="Filter by description" value={aboutSearch} onChange={(e) => setAboutSearch(e.currentTarget.value)} w={220} />
          <Select aria-label="Sort" w={190} value={sort} allowDeselect={false} onChange={(v) => setQuery({ sort: v === 'name' ? undefined : v })} data={SORTS.map((s) => ({ ...s }))} />
        </Group>
        {groups.loading && !groups.data ? (
          <Loading label="Loading groups…" />
        ) : rows.length === 0 ? (
          name || description ? (
            <Empty icon={<GroupIcon size={22} />} title="No groups match">{name ? `No group name contains “${name}”` : 'No group matches'}{description ? ` with a description containing “${description}”` : ''}.</Empty>
          ) : (
            <Empty icon={<GroupIcon size={22} />} title="No groups yet" action={<Button onClick={() => onEdit('new')}>Create a group</Button>}>
              Groups keep devices of one kind together, for example “Office phones” or “Cloud fleet”.
            </Empty>
          )
        ) : (
          <Table.ScrollContainer minWidth={780}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Description</Table.Th>
                  <Table.Th>Devices</Table.Th>
                  <Table.Th>Updated</Table.Th>
                  <Table.Th><span className="visually-hidden">Actions</span></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((group) => (
                  <Table.Tr key={group.id}>
                    <Table.Td><Text size="sm" fw={600}>{group.name}</Text></Table.Td>
                    <Table.Td><KindLabel kind={group.kind} /></Table.Td>
                    <Table.Td maw={300}><Text size="sm" c="dimmed" truncate="end">{group.description || '—'}</Text></Table.Td>
                    <Table.Td><Text size="sm" component={Link} to={`/devices?group_id=${group.id}`} c="indigo.8" td="underline">{group.no_of_devices}</Text></Table.Td>
                    <Table.Td><Text size="sm"><Time value={group.updated_at} /></Text></Table.Td>
                    <Table.Td ta="right">
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button size="xs" variant="subtle" onClick={() => onEdit(group)} aria-label={`Edit ${group.name}`}>Edit</Button>
                        <Confirm title="Delete this group?" confirmLabel="Delete group" onConfirm={() => remove(group)}
                          trigger={(open) => <Button size="xs" variant="subtle" c={TEXT.danger} onClick={open} aria-label={`Delete ${group.name}`}>Delete</Button>}>
                          “{group.name}” is deleted. Its {group.no_of_devices} device(s) stay, with no group.
                        </Confirm>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {groups.data && groups.data.total_rows > 0 && <Pager noun="groups" info={groups.data} onPage={(p) => setQuery({ page: p })} />}
    </>
  );
}
