// Devices: local ones (an ADB port on the user's machine) and cloud ones; listed, added,
// changed and deleted; one opens in a drawer (DeviceDrawer) with its proxy and, for a cloud
// device, the cloud section that the lifecycle controls extend.
import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { Device } from '../../api/types';
import { setQuery, useLocation } from '../../app/router';
import { FilterBar } from '../../components/FilterBar';
import { DeviceIcon, PlusIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { AddDeviceModal, type DeviceKind } from './AddDeviceModal';
import { DeviceDrawer } from './DeviceDrawer';
import { deleteDevice, listDevices } from './devices-api';
import { EditDeviceModal } from './EditDeviceModal';
import { type Lookups, useLookups } from './lookups';

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

const COLUMNS = (lookups: Lookups): Column<Device>[] => [
  {
    header: 'Name',
    cell: (device) => (
      <Anchor component="button" type="button" size="sm" fw={600} c="indigo.8" onClick={() => setQuery({ device: String(device.id) })} aria-label={`Open ${device.name}`}>{device.name}</Anchor>
    ),
  },
  {
    header: 'Where',
    cell: (device) =>
      device.is_hosted ? (
        <Group gap={6}><Text size="sm">Cloud</Text>{device.hosted_state && <StatusBadge value={device.hosted_state} />}</Group>
      ) : (
        <Text size="sm">Local · port <span className="mono">{device.port}</span></Text>
      ),
  },
  { header: 'Group', cell: (device) => <Text size="sm">{lookups.groupName(device.group_id) ?? '—'}</Text> },
  { header: 'Macro', cell: (device) => <Text size="sm">{lookups.macroName(device.macro_id) ?? '—'}</Text> },
  { header: 'Runs', cell: (device) => <Text size="sm">{device.run_count}</Text> },
  { header: 'Added', cell: (device) => <Text size="sm"><Time value={device.created_at} /></Text> },
];

function DeviceList({ lookups, version, onAdd, onNotice }: { lookups: Lookups; version: number; onAdd: (kind: DeviceKind) => void; onNotice: (text: string) => void }) {
  const { query } = useLocation();
  const page = pageFrom(query);
  const name = query.get('name') ?? '';
  const groupId = query.get('group_id');
  const macroId = query.get('macro_id');
  const sort = (SORTS.find((s) => s.value === query.get('sort'))?.value ?? 'name') as Sort;
  const [editing, setEditing] = useState<Device | null>(null);
  const devices = useAsync(
    () => listDevices({ page, page_size: PAGE_SIZE, sort, ...(name ? { name } : {}), ...(groupId ? { group_id: Number(groupId) } : {}), ...(macroId ? { macro_id: Number(macroId) } : {}) }),
    [page, name, groupId, macroId, sort, version],
  );
  const rows = devices.data?.rows ?? [];
  const filtered = Boolean(name || groupId || macroId);
  return (
    <>
      <ResourceTable
        noun="device"
        list={devices}
        columns={COLUMNS(lookups)}
        rowKey={(d) => d.id}
        minWidth={900}
        toolbar={
          <FilterBar
            label="Filter devices"
            filtered={filtered}
            fields={[
              { kind: 'text', param: 'name', label: 'Filter by name' },
              { kind: 'select', param: 'group_id', label: 'Group', placeholder: 'Any group', width: 190, data: lookups.groups.map((g) => ({ value: String(g.id), label: g.name })) },
              { kind: 'select', param: 'macro_id', label: 'Macro', placeholder: 'Any macro', width: 190, searchable: true, data: lookups.macros.map((m) => ({ value: String(m.id), label: m.name })) },
              { kind: 'select', param: 'sort', label: 'Sort', width: 170, fallback: 'name', data: SORTS.map((s) => ({ ...s })) },
            ]}
          />
        }
        filtered={filtered}
        empty={{
          icon: <DeviceIcon size={22} />,
          title: 'No devices yet',
          body: 'Register an emulator or phone on your machine by its ADB port, or create a cloud device.',
          action: <Group><Button onClick={() => onAdd('local')}>Add a local device</Button><Button variant="default" onClick={() => onAdd('cloud')}>Add a cloud device</Button></Group>,
        }}
        rowActions={(device) => <Button size="xs" variant="subtle" onClick={() => setEditing(device)} aria-label={`Edit ${device.name}`}>Edit</Button>}
        remove={{
          buttonLabel: (device) => `Delete ${device.name}`,
          title: 'Delete this device?',
          confirmLabel: 'Delete device',
          body: (device) => <>“{device.name}” is removed from your account. Its run history stays.</>,
          run: async (device) => {
            await deleteDevice(device.id);
            onNotice(`Deleted “${device.name}”; its run history stays.`);
            devices.reload();
          },
        }}
      />
      <DeviceDrawer device={rows.find((d) => String(d.id) === query.get('device')) ?? null} lookups={lookups} onClose={() => setQuery({ device: undefined })} onEdit={(d) => { setQuery({ device: undefined }); setEditing(d); }} onChanged={devices.reload} />
      <EditDeviceModal device={editing} lookups={lookups} onClose={() => setEditing(null)} onSaved={devices.reload} />
    </>
  );
}
