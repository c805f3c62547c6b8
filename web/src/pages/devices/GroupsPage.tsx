// Device groups: local (byod) and cloud; listed, created, renamed and deleted.
import { Alert, Badge, Button, Text } from '@mantine/core';
import { useState } from 'react';
import type { DeviceGroup } from '../../api/types';
import { Link, useLocation } from '../../app/router';
import { FilterBar } from '../../components/FilterBar';
import { GroupIcon, PlusIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { Time } from '../../components/Time';
import { plural } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { deleteGroup, listGroups } from './devices-api';
import { GroupModal } from './GroupModal';

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

const COLUMNS: Column<DeviceGroup>[] = [
  { header: 'Name', cell: (group) => <Text size="sm" fw={600}>{group.name}</Text> },
  { header: 'Kind', cell: (group) => <KindLabel kind={group.kind} /> },
  { header: 'Description', maxWidth: 300, cell: (group) => <Text size="sm" c="dimmed" truncate="end">{group.description || '—'}</Text> },
  { header: 'Devices', cell: (group) => <Text size="sm" component={Link} to={`/devices?group_id=${group.id}`} c="indigo.8" td="underline">{group.no_of_devices}</Text> },
  { header: 'Updated', cell: (group) => <Text size="sm"><Time value={group.updated_at} /></Text> },
];

function GroupList({ version, onEdit, onNotice }: { version: number; onEdit: (group: DeviceGroup | 'new') => void; onNotice: (text: string) => void }) {
  const { query } = useLocation();
  const page = pageFrom(query);
  const name = query.get('name') ?? '';
  const sort = (SORTS.find((s) => s.value === query.get('sort'))?.value ?? 'name') as Sort;
  const description = query.get('description') ?? '';
  const groups = useAsync(
    () => listGroups({ page, page_size: PAGE_SIZE, sort, ...(name ? { name } : {}), ...(description ? { description } : {}) }),
    [page, name, description, sort, version],
  );
  const filtered = Boolean(name || description);
  return (
    <ResourceTable
      noun="group"
      list={groups}
      columns={COLUMNS}
      rowKey={(g) => g.id}
      minWidth={780}
      toolbar={
        <FilterBar
          label="Filter groups"
          filtered={filtered}
          fields={[
            { kind: 'text', param: 'name', label: 'Filter by name' },
            { kind: 'text', param: 'description', label: 'Filter by description' },
            { kind: 'select', param: 'sort', label: 'Sort', width: 190, fallback: 'name', data: SORTS.map((s) => ({ ...s })) },
          ]}
        />
      }
      filtered={filtered}
      noMatch={{ body: <>{name ? `No group name contains “${name}”` : 'No group matches'}{description ? ` with a description containing “${description}”` : ''}.</> }}
      empty={{
        icon: <GroupIcon size={22} />,
        title: 'No groups yet',
        body: 'Groups keep devices of one kind together, for example “Office phones” or “Cloud fleet”.',
        action: <Button onClick={() => onEdit('new')}>Create a group</Button>,
      }}
      rowActions={(group) => <Button size="xs" variant="subtle" onClick={() => onEdit(group)} aria-label={`Edit ${group.name}`}>Edit</Button>}
      remove={{
        buttonLabel: (group) => `Delete ${group.name}`,
        title: 'Delete this group?',
        confirmLabel: 'Delete group',
        body: (group) => <>“{group.name}” is deleted. {group.no_of_devices === 0 ? 'It has no devices.' : `Its ${plural(group.no_of_devices, 'device')} stay, with no group.`}</>,
        run: async (group) => {
          await deleteGroup(group.id);
          onNotice(`Deleted group “${group.name}”; its devices stay, with no group.`);
          groups.reload();
        },
      }}
    />
  );
}
