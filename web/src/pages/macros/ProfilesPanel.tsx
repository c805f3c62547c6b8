// A code macro's settings profiles: the named argument sets its devices can follow.
import { Badge, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { Profile } from '../../api/types';
import { useLocation } from '../../app/router';
import { PlusIcon } from '../../components/icons';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { pageLocally } from '../../lib/paging';
import { Time } from '../../components/Time';
import { plural } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { TEXT } from '../../theme';
import { deleteProfile, listProfiles } from './macros-api';
import { ProfileModal } from './ProfileModal';

const PAGE_SIZE = 20;
/** The macro page's tabs share the query string; the profiles keep their page apart. */
const PAGE_PARAM = 'profiles_page';

function argsSummary(args: Profile['args']): string {
  const names = Object.keys(args).filter((name) => name !== '__cli_args__');
  const cli = args.__cli_args__ ? ` · command line: ${args.__cli_args__}` : '';
  return (names.length === 0 ? 'No arguments' : names.join(', ')) + cli;
}

const COLUMNS: Column<Profile>[] = [
  {
    header: 'Name',
    cell: (profile) => (
      <Group gap={6}>
        <Text size="sm" fw={600}>{profile.name}</Text>
        {profile.is_default && <Badge size="sm" variant="light" color="gray" tt="none">Default</Badge>}
      </Group>
    ),
  },
  { header: 'Arguments', maxWidth: 340, cell: (profile) => <Text size="sm" c="dimmed" truncate="end">{argsSummary(profile.args)}</Text> },
  { header: 'Devices using it', cell: (profile) => <Text size="sm">{profile.devices_using}</Text> },
  { header: 'Updated', cell: (profile) => <Text size="sm"><Time value={profile.updated_at} /></Text> },
];

export function ProfilesPanel({ macroId }: { macroId: number }) {
  const profiles = useAsync(() => listProfiles(macroId), [macroId]);
  const [editing, setEditing] = useState<Profile | null | 'new'>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const page = pageFrom(useLocation().query, PAGE_PARAM);
  return (
    <>
      {notice && <Text size="sm" c={TEXT.success} role="status" mb="sm">{notice}</Text>}
      <ResourceTable
        noun="profile"
        list={pageLocally(profiles, page, PAGE_SIZE)}
        pageParam={PAGE_PARAM}
        columns={COLUMNS}
        rowKey={(profile) => profile.id}
        minWidth={720}
        errorTitle="Could not load the profiles"
        toolbar={
          <>
            <div>
              <Text fw={600}>Settings profiles</Text>
              <Text size="sm" c="dimmed">Devices follow a profile: the arguments their runs of this macro get.</Text>
            </div>
            <Button size="sm" leftSection={<PlusIcon size={16} />} onClick={() => setEditing('new')}>New profile</Button>
          </>
        }
        // Every Python macro has its Default profile, so the list is never empty for long.
        empty={{ icon: <PlusIcon size={22} />, title: 'No profiles yet', body: 'The macro’s Default profile appears here once the macro has one.' }}
        rowActions={(profile) => <Button size="xs" variant="subtle" onClick={() => setEditing(profile)} aria-label={`Edit ${profile.name}`}>Edit</Button>}
        remove={{
          buttonLabel: (profile) => `Delete ${profile.name}`,
          allowed: (profile) => !profile.is_default,
          title: 'Delete this profile?',
          confirmLabel: 'Delete profile',
          body: (profile) =>
            profile.devices_using === 0
              ? <>“{profile.name}” is deleted; no device follows it.</>
              : <>“{profile.name}” is deleted; the {plural(profile.devices_using, 'device')} following it move to the Default profile.</>,
          run: async (profile) => {
            const result = await deleteProfile(profile.id);
            const fallback = profiles.data?.find((p) => p.id === result.repointed_to)?.name ?? 'Default';
            setNotice(`Deleted “${profile.name}”. Devices that followed it now follow “${fallback}”.`);
            profiles.reload();
          },
        }}
      />
      <ProfileModal macroId={macroId} profile={editing === 'new' ? null : editing} opened={editing !== null} onClose={() => setEditing(null)} onSaved={profiles.reload} />
    </>
  );
}
