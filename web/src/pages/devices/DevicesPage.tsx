// Devices: local ones (an ADB port on the user's machine) and cloud ones; listed, added,
// changed and deleted; one opens in a drawer (DeviceDrawer) with its proxy and, for a cloud
// device, the cloud section that the lifecycle controls extend.
import { Alert, Anchor, Button, Card, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { Device } from '../../api/types';
import { setQuery, useLocation } from '../../app/router';
import { Confirm } from '../../components/Confirm';
import { Empty } from '../../components/Empty';
import { ErrorAlert } from '../../components/ErrorAlert';
import { DeviceIcon, PlusIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Pager, pageFrom } from '../../components/Pager';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { AddDeviceModal, type DeviceKind } from './AddDeviceModal';
import { DeviceDrawer } from './DeviceDrawer';
import { EditDeviceModal } from './EditDeviceModal';
import { type Lookups, useLookups } from './lookups';
import { TEXT } from '../../theme';

const PAGE_SIZE = 20;
const SORTS = [
  { value: 'name', label: 'Name (A–Z)' },
  { value: '-created_at', label: 'Newest first' },
  { value: 'created_at', label: 'Oldest first' },
  { value: '-run_count', label: 'Most runs' },
  { value: 'port', label: 'Port' },
] as const;
type Sort = (typeof SORTS)[number]['value'];

export function DevicesPage() {
  const lookups = useLookups();
  const [adding, setAdding] = useState<DeviceKind | null>(null);
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <>
      <PageHeader
        title="Devices"
        description="Devices on your machine (reached through their ADB port) and cloud devices. Each follows a macro and one of its settings profiles."
        actions={
          <>
            <Button variant="default" leftSection={<PlusIcon size={16} />} onClick={() => setAdding('cloud')}>Cloud device</Button>
            <Button leftSection={<PlusIcon size={16} />} onClick={() => setAdding('local')}>Local device</Button>
          </>
        }
      />
      {notice && (
        <Alert color="green" variant="light" mb="md" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <DeviceList lookups={lookups} version={version} onAdd={setAdding} onNotice={setNotice} />
      <AddDeviceModal kind={adding} groups={lookups.groups} onClose={() => setAdding(null)} onCreated={(device) => { setNotice(`Added “${device.name}” (device ${device.id}${device.is_hosted ? ', a cloud device, stopped' : `, port ${device.port}`}).`); setVersion((v) => v + 1); }} />
    </>
  );
}

function DeviceList({ lookups, version, onAdd, onNotice }: { lookups: Lookups; version: number; onAdd: (kind: DeviceKind) => void; onNotice: (text: string) => void }) {
  const { query } = useLocation();
  const page = pageFrom(query);
  const name = query.get('name') ?? '';
  const groupId = query.get('group_id');
  const macroId = query.get('macro_id');
  const sort = (SORTS.find((s) => s.value === query.get('sort'))?.value ?? 'name') as Sort;
  const [search, setSearch] = useState(name);
  const [debounced] = useDebouncedValue(search, 300);
  const [editing, setEditing] = useState<Device | null>(null);
  useEffect(() => {
    if (debounced !== name) setQuery({ name: debounced.trim() || undefined, page: undefined });
  }, [debounced, name]);
  const devices = useAsync(
    () =>
      unwrap(api.GET('/api/emulator/devices', {
        params: { query: { page, page_size: PAGE_SIZE, sort, ...(name ? { name } : {}), ...(groupId ? { group_id: Number(groupId) } : {}), ...(macroId ? { macro_id: Number(macroId) } : {}) } },
      })),
    [page, name, groupId, macroId, sort, version],
  );
  const filtered = Boolean(name || groupId || macroId);
  const rows = devices.data?.rows ?? [];
  const remove = async (device: Device) => {
    await unwrap(api.DELETE('/api/emulator/devices/{id}', { params: { path: { id: device.id } } }));
    onNotice(`Deleted “${device.name}”; its run history stays.`);
    devices.reload();
  };
  return (
    <>
      <ErrorAlert error={devices.error} title="Could not load devices" />
      <Card p={0}>
        <Group px="lg" py="sm" gap="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <TextInput aria-label="Filter by name" placeholder="Filter by name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={220} />
          <Select aria-label="Group" placeholder="Any group" clearable w={190} value={groupId} onChange={(v) => setQuery({ group_id: v, page: undefined })} data={lookups.groups.map((g) => ({ value: String(g.id), label: g.name }))} />
          <Select aria-label="Macro" placeholder="Any macro" clearable searchable w={190} value={macroId} onChange={(v) => setQuery({ macro_id: v, page: undefined })} data={lookups.macros.map((m) => ({ value: String(m.id), label: m.name }))} />
          <Select aria-label="Sort" w={170} value={sort} allowDeselect={false} onChange={(v) => setQuery({ sort: v === 'name' ? undefined : v })} data={SORTS.map((s) => ({ ...s }))} />
        </Group>
        {devices.loading && !devices.data ? (
          <Loading label="Loading devices…" />
        ) : rows.length === 0 ? (
          filtered ? (
            <Empty icon={<DeviceIcon size={22} />} title="No devices match">Change or clear the filters above.</Empty>
          ) : (
            <Empty icon={<DeviceIcon size={22} />} title="No devices yet" action={<Group><Button onClick={() => onAdd('local')}>Add a local device</Button><Button variant="default" onClick={() => onAdd('cloud')}>Add a cloud device</Button></Group>}>
              Register an emulator or phone on your machine by its ADB port, or create a cloud device.
            </Empty>
          )
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Where</Table.Th>
                  <Table.Th>Group</Table.Th>
                  <Table.Th>Macro</Table.Th>
                  <Table.Th>Runs</Table.Th>
                  <Table.Th>Added</Table.Th>
                  <Table.Th><span className="visually-hidden">Actions</span></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((device) => (
                  <Table.Tr key={device.id}>
                    <Table.Td>
                      <Anchor component="button" type="button" size="sm" fw={600} c="indigo.8" onClick={() => setQuery({ device: String(device.id) })} aria-label={`Open ${device.name}`}>{device.name}</Anchor>
                    </Table.Td>
                    <Table.Td>
                      {device.is_hosted ? (
                        <Group gap={6}><Text size="sm">Cloud</Text>{device.hosted_state && <StatusBadge value={device.hosted_state} />}</Group>
                      ) : (
                        <Text size="sm">Local · port <span className="mono">{device.port}</span></Text>
                      )}
                    </Table.Td>
                    <Table.Td><Text size="sm">{lookups.groupName(device.group_id) ?? '—'}</Text></Table.Td>
                    <Table.Td><Text size="sm">{lookups.macroName(device.macro_id) ?? '—'}</Text></Table.Td>
                    <Table.Td><Text size="sm">{device.run_count}</Text></Table.Td>
                    <Table.Td><Text size="sm"><Time value={device.created_at} /></Text></Table.Td>
                    <Table.Td ta="right">
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button size="xs" variant="subtle" onClick={() => setEditing(device)} aria-label={`Edit ${device.name}`}>Edit</Button>
                        <Confirm title="Delete this device?" confirmLabel="Delete device" onConfirm={() => remove(device)}
                          trigger={(open) => <Button size="xs" variant="subtle" c={TEXT.danger} onClick={open} aria-label={`Delete ${device.name}`}>Delete</Button>}>
                          “{device.name}” is removed from your account. Its run history stays.
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
      {devices.data && devices.data.total_rows > 0 && <Pager noun="devices" info={devices.data} onPage={(p) => setQuery({ page: p })} />}
      <DeviceDrawer device={rows.find((d) => String(d.id) === query.get('device')) ?? null} lookups={lookups} onClose={() => setQuery({ device: undefined })} onEdit={(d) => { setQuery({ device: undefined }); setEditing(d); }} onChanged={devices.reload} />
      <EditDeviceModal device={editing} lookups={lookups} onClose={() => setEditing(null)} onSaved={devices.reload} />
    </>
  );
}
