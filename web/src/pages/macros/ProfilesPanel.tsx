// A code macro's settings profiles: the named argument sets its devices can follow.
import { Badge, Button, Card, Group, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { Profile } from '../../api/types';
import { setQuery, useLocation } from '../../app/router';
import { Confirm } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { Pager } from '../../components/Pager';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { ProfileModal } from './ProfileModal';
import { TEXT } from '../../theme';

const PAGE_SIZE = 20;

function argsSummary(args: Profile['args']): string {
  const names = Object.keys(args).filter((name) => name !== '__cli_args__');
  const cli = args.__cli_args__ ? ` · command line: ${args.__cli_args__}` : '';
  return (names.length === 0 ? 'No arguments' : names.join(', ')) + cli;
}

export function ProfilesPanel({ macroId }: { macroId: number }) {
  const profiles = useAsync(() => unwrap(api.GET('/api/macro-setting-profiles', { params: { query: { macro_id: macroId } } })), [macroId]);
  const [editing, setEditing] = useState<Profile | null | 'new'>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { query } = useLocation();
  const items = profiles.data?.items ?? [];
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const page = Math.min(pages, Math.max(1, Number(query.get('profiles_page') ?? 1) || 1));
  const remove = async (profile: Profile) => {
    const result = await unwrap(api.DELETE('/api/macro-setting-profiles/{id}', { params: { path: { id: profile.id } } }));
    const fallback = items.find((p) => p.id === result.repointed_to)?.name ?? 'Default';
    setNotice(`Deleted “${profile.name}”. Devices that followed it now follow “${fallback}”.`);
    profiles.reload();
  };
  if (profiles.loading && !profiles.data) return <Loading label="Loading profiles…" />;
  return (
    <>
      <ErrorAlert error={profiles.error} title="Could not load the profiles" />
      {notice && <Text size="sm" c={TEXT.success} role="status" mb="sm">{notice}</Text>}
      <Card p={0}>
        <Group justify="space-between" px="lg" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <div>
            <Text fw={600}>Settings profiles</Text>
            <Text size="sm" c="dimmed">Devices follow a profile: the arguments their runs of this macro get.</Text>
          </div>
          <Button size="sm" leftSection={<PlusIcon size={16} />} onClick={() => setEditing('new')}>New profile</Button>
        </Group>
        <Table.ScrollContainer minWidth={720}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Arguments</Table.Th>
                <Table.Th>Devices using it</Table.Th>
                <Table.Th>Updated</Table.Th>
                <Table.Th><span className="visually-hidden">Actions</span></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((profile) => (
                <Table.Tr key={profile.id}>
                  <Table.Td>
                    <Group gap={6}>
                      <Text size="sm" fw={600}>{profile.name}</Text>
                      {profile.is_default && <Badge size="sm" variant="light" color="gray" tt="none">Default</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td maw={340}><Text size="sm" c="dimmed" truncate="end">{argsSummary(profile.args)}</Text></Table.Td>
                  <Table.Td><Text size="sm">{profile.devices_using}</Text></Table.Td>
                  <Table.Td><Text size="sm"><Time value={profile.updated_at} /></Text></Table.Td>
                  <Table.Td ta="right">
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="subtle" onClick={() => setEditing(profile)} aria-label={`Edit ${profile.name}`}>Edit</Button>
                      {!profile.is_default && (
                        <Confirm
                          title="Delete this profile?"
                          confirmLabel="Delete profile"
                          onConfirm={() => remove(profile)}
                          trigger={(open) => <Button size="xs" variant="subtle" c={TEXT.danger} onClick={open} aria-label={`Delete ${profile.name}`}>Delete</Button>}
                        >
                          “{profile.name}” is deleted; the {profile.devices_using} device(s) following it move to the Default profile.
                        </Confirm>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <Pager noun="profiles" info={{ page, page_size: PAGE_SIZE, total_rows: items.length, total_pages: pages }} onPage={(p) => setQuery({ profiles_page: p })} />
      <ProfileModal macroId={macroId} profile={editing === 'new' ? null : editing} opened={editing !== null} onClose={() => setEditing(null)} onSaved={profiles.reload} />
    </>
  );
}
