// Which device uses which proxy: assigning, the connection info, and removing.
import { Button, Card, Group, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { ProxyAssignment } from '../../api/types';
import { setQuery, useLocation } from '../../app/router';
import { Confirm } from '../../components/Confirm';
import { Empty } from '../../components/Empty';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon, ProxyIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { Pager, pageFrom } from '../../components/Pager';
import { Time } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { ConnectionInfoModal } from './ConnectionInfoModal';
import { proxyName } from './ProxyListTab';
import { TEXT } from '../../theme';

const PAGE_SIZE = 25;

export function AssignmentsTab() {
  const assignments = useAsync(() => unwrap(api.GET('/api/proxy/assignments')), []);
  const [assigning, setAssigning] = useState(false);
  const [info, setInfo] = useState<ProxyAssignment | null>(null);
  const { query } = useLocation();
  const items = assignments.data?.items ?? [];
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const page = Math.min(pages, pageFrom(query));
  if (assignments.loading && !assignments.data) return <Loading label="Loading assignments…" />;
  return (
    <Stack>
      <ErrorAlert error={assignments.error} />
      <Card p={0}>
        <Group justify="space-between" px="lg" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Text fw={600}>Active assignments</Text>
          <Button size="sm" leftSection={<PlusIcon size={16} />} onClick={() => setAssigning(true)}>Assign a proxy</Button>
        </Group>
        {items.length === 0 ? (
          <Empty icon={<ProxyIcon size={22} />} title="No device uses a proxy" action={<Button onClick={() => setAssigning(true)}>Assign a proxy</Button>}>
            Assign a proxy to a device and its runs leave through that proxy.
          </Empty>
        ) : (
          <Table.ScrollContainer minWidth={820}>
            <Table>
              <Table.Thead><Table.Tr><Table.Th>Device</Table.Th><Table.Th>Proxy</Table.Th><Table.Th>Session</Table.Th><Table.Th>Since</Table.Th><Table.Th><span className="visually-hidden">Actions</span></Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((a) => (
                  <Table.Tr key={a.id}>
                    <Table.Td><Text size="sm" fw={600}>{a.device_name}</Text><Text size="xs" c="dimmed">{a.device_port ? `port ${a.device_port}` : 'cloud'}</Text></Table.Td>
                    <Table.Td><Text size="sm">{proxyName(a.proxy)}</Text></Table.Td>
                    <Table.Td><Text size="sm">{a.session_type}</Text></Table.Td>
                    <Table.Td><Text size="sm"><Time value={a.created_at} /></Text></Table.Td>
                    <Table.Td ta="right">
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button size="xs" variant="light" onClick={() => setInfo(a)} aria-label={`Connection info for ${a.device_name}`}>Connection info</Button>
                        <Confirm title="Remove this assignment?" confirmLabel="Remove" onConfirm={async () => { await unwrap(api.DELETE('/api/proxy/assignments/{id}', { params: { path: { id: a.id } } })); assignments.reload(); }}
                          trigger={(open) => <Button size="xs" variant="subtle" c={TEXT.danger} onClick={open} aria-label={`Remove the proxy from ${a.device_name}`}>Remove</Button>}>
                          {a.device_name} stops using {proxyName(a.proxy)}.
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
      {items.length > 0 && <Pager noun="assignments" info={{ page, page_size: PAGE_SIZE, total_rows: items.length, total_pages: pages }} onPage={(p) => setQuery({ page: p })} />}
      <AssignModal opened={assigning} onClose={() => setAssigning(false)} onAssigned={assignments.reload} />
      <ConnectionInfoModal assignment={info} onClose={() => setInfo(null)} />
    </Stack>
  );
}

function AssignModal({ opened, onClose, onAssigned }: { opened: boolean; onClose: () => void; onAssigned: () => void }) {
  const proxies = useAsync(() => (opened ? unwrap(api.GET('/api/proxy', { params: { query: { page_size: 200 } } })) : Promise.resolve(null)), [opened]);
  const devices = useAsync(() => (opened ? unwrap(api.GET('/api/emulator/devices', { params: { query: { page_size: 200 } } })) : Promise.resolve(null)), [opened]);
  const [proxyId, setProxyId] = useState<string | null>(null);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [sessionType, setSessionType] = useState<'sticky' | 'rotating'>('sticky');
  const assign = useAction(async () => {
    await unwrap(api.POST('/api/proxy/assignments', { body: { proxy_id: Number(proxyId), emulator_device_id: Number(deviceId), session_type: sessionType } }));
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
          <Select label="Device" required searchable value={deviceId} onChange={setDeviceId} data={(devices.data?.rows ?? []).map((d) => ({ value: String(d.id), label: d.name }))} data-autofocus />
          <Select label="Proxy" required searchable value={proxyId} onChange={setProxyId} data={(proxies.data?.rows ?? []).map((p) => ({ value: String(p.id), label: `${proxyName(p)} (${p.status})` }))} />
          <Select label="Session" allowDeselect={false} value={sessionType} onChange={(v) => setSessionType(v === 'rotating' ? 'rotating' : 'sticky')} data={[{ value: 'sticky', label: 'Sticky' }, { value: 'rotating', label: 'Rotating' }]} />
          <Group justify="flex-end"><Button variant="default" onClick={onClose}>Cancel</Button><Button type="submit" loading={assign.pending} disabled={!proxyId || !deviceId}>Assign</Button></Group>
        </Stack>
      </form>
    </Modal>
  );
}
