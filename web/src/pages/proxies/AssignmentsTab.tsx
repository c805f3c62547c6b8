// Which device uses which proxy: assigning, the connection info, and removing.
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { ProxyAssignment } from '../../api/types';
import { useLocation } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon, ProxyIcon } from '../../components/icons';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { allPages, pageLocally } from '../../lib/paging';
import { Time } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { allDevices } from '../devices/devices-api';
import { ConnectionInfoModal } from './ConnectionInfoModal';
import { assignProxy, listAssignments, listProxies, unassignProxy } from './proxies-api';
import { proxyName } from './ProxyListTab';

const PAGE_SIZE = 25;

const COLUMNS: Column<ProxyAssignment>[] = [
  { header: 'Device', cell: (a) => <><Text size="sm" fw={600}>{a.device_name}</Text><Text size="xs" c="dimmed">{a.device_port ? `port ${a.device_port}` : 'cloud'}</Text></> },
  { header: 'Proxy', cell: (a) => <Text size="sm">{proxyName(a.proxy)}</Text> },
  { header: 'Session', cell: (a) => <Text size="sm">{a.session_type}</Text> },
  { header: 'Since', cell: (a) => <Text size="sm"><Time value={a.created_at} /></Text> },
];

export function AssignmentsTab() {
  const assignments = useAsync(listAssignments, []);
  const [assigning, setAssigning] = useState(false);
  const [info, setInfo] = useState<ProxyAssignment | null>(null);
  const page = pageFrom(useLocation().query);
  return (
    <Stack gap={0}>
      <ResourceTable
        noun="assignment"
        list={pageLocally(assignments, page, PAGE_SIZE)}
        columns={COLUMNS}
        rowKey={(a) => a.id}
        minWidth={820}
        toolbar={
          <>
            <Text fw={600}>Active assignments</Text>
            <Button size="sm" leftSection={<PlusIcon size={16} />} onClick={() => setAssigning(true)}>Assign a proxy</Button>
          </>
        }
        empty={{
          icon: <ProxyIcon size={22} />,
          title: 'No device uses a proxy',
          body: 'Assign a proxy to a device and its runs leave through that proxy.',
          action: <Button onClick={() => setAssigning(true)}>Assign a proxy</Button>,
        }}
        rowActions={(a) => <Button size="xs" variant="light" onClick={() => setInfo(a)} aria-label={`Connection info for ${a.device_name}`}>Connection info</Button>}
        remove={{
          verb: 'Remove',
          buttonLabel: (a) => `Remove the proxy from ${a.device_name}`,
          title: 'Remove this assignment?',
          confirmLabel: 'Remove',
          body: (a) => <>{a.device_name} stops using {proxyName(a.proxy)}.</>,
          run: async (a) => {
            await unassignProxy(a.id);
            assignments.reload();
          },
        }}
      />
      <AssignModal opened={assigning} onClose={() => setAssigning(false)} onAssigned={assignments.reload} />
      <ConnectionInfoModal assignment={info} onClose={() => setInfo(null)} />
    </Stack>
  );
}

function AssignModal({ opened, onClose, onAssigned }: { opened: boolean; onClose: () => void; onAssigned: () => void }) {
  const proxies = useAsync(() => (opened ? allPages(listProxies) : Promise.resolve(null)), [opened]);
  const devices = useAsync(() => (opened ? allDevices() : Promise.resolve(null)), [opened]);
  const [proxyId, setProxyId] = useState<string | null>(null);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [sessionType, setSessionType] = useState<'sticky' | 'rotating'>('sticky');
  const assign = useAction(async () => {
    await assignProxy({ proxy_id: Number(proxyId), emulator_device_id: Number(deviceId), session_type: sessionType });
    onAssigned();
    onClose();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void assign.run();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={650}>Assign a proxy to a device</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={assign.error ?? proxies.error ?? devices.error} title="Not assigned" />
          <Select label="Device" required searchable value={deviceId} onChange={setDeviceId} data={(devices.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))} data-autofocus />
          <Select label="Proxy" required searchable value={proxyId} onChange={setProxyId} data={(proxies.data ?? []).map((p) => ({ value: String(p.id), label: `${proxyName(p)} (${p.status})` }))} />
          <Select label="Session" allowDeselect={false} value={sessionType} onChange={(v) => setSessionType(v === 'rotating' ? 'rotating' : 'sticky')} data={[{ value: 'sticky', label: 'Sticky' }, { value: 'rotating', label: 'Rotating' }]} />
          <Group justify="flex-end"><Button variant="default" onClick={onClose}>Cancel</Button><Button type="submit" loading={assign.pending} disabled={!proxyId || !deviceId}>Assign</Button></Group>
        </Stack>
      </form>
    </Modal>
  );
}
