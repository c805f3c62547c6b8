// The proxies: their last check (live or dead, exit address, latency), checking one now,
// renaming and deleting; adding one or importing many.
import { Button, Card, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { Proxy } from '../../api/types';
import { setQuery, useLocation } from '../../app/router';
import { Confirm } from '../../components/Confirm';
import { Empty } from '../../components/Empty';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PlusIcon, ProxyIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { Pager, pageFrom } from '../../components/Pager';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { AddProxyModal } from './AddProxyModal';
import { ImportModal } from './ImportModal';
import { TEXT } from '../../theme';

const PAGE_SIZE = 25;
const STATUSES = ['unchecked', 'live', 'dead'] as const;
const MODES = ['byop', 'managed'] as const;

export const proxyName = (p: Proxy) => p.label || `${p.host}:${p.port}`;

export function ProxyListTab() {
  const { query } = useLocation();
  const page = pageFrom(query);
  const status = STATUSES.find((s) => s === query.get('status'));
  const mode = MODES.find((m) => m === query.get('mode'));
  const proxies = useAsync(() => unwrap(api.GET('/api/proxy', { params: { query: { page, page_size: PAGE_SIZE, ...(status ? { status } : {}), ...(mode ? { mode } : {}) } } })), [page, status, mode]);
  const [dialog, setDialog] = useState<'add' | 'import' | null>(null);
  const [renaming, setRenaming] = useState<Proxy | null>(null);
  const rows = proxies.data?.rows ?? [];
  return (
    <Stack>
      <ErrorAlert error={proxies.error} title="Could not load proxies" />
      <Card p={0}>
        <Group justify="space-between" px="lg" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Group gap="sm">
            <Select aria-label="Status" placeholder="Any status" clearable w={160} value={status ?? null} onChange={(v) => setQuery({ status: v, page: undefined })} data={STATUSES.map((s) => ({ value: s, label: s }))} />
            <Select aria-label="Kind" placeholder="Any kind" clearable w={180} value={mode ?? null} onChange={(v) => setQuery({ mode: v, page: undefined })} data={[{ value: 'byop', label: 'Your own proxies' }, { value: 'managed', label: 'Managed' }]} />
          </Group>
          <Group gap="sm">
            <Button variant="default" onClick={() => setDialog('import')}>Import</Button>
            <Button leftSection={<PlusIcon size={16} />} onClick={() => setDialog('add')}>Add proxy</Button>
          </Group>
        </Group>
        {proxies.loading && !proxies.data ? (
          <Loading label="Loading proxies…" />
        ) : rows.length === 0 ? (
          <Empty icon={<ProxyIcon size={22} />} title={status || mode ? 'No proxies match' : 'No proxies yet'} action={status || mode ? undefined : <Button onClick={() => setDialog('import')}>Import a list</Button>}>
            {status || mode ? 'Change or clear the filters above.' : 'Add your own HTTP, HTTPS or SOCKS5 proxies, then assign them to devices.'}
          </Empty>
        ) : (
          <Table.ScrollContainer minWidth={880}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Proxy</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Exit</Table.Th>
                  <Table.Th>Latency</Table.Th>
                  <Table.Th>Checked</Table.Th>
                  <Table.Th><span className="visually-hidden">Actions</span></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>{rows.map((p) => <ProxyRow key={p.id} proxy={p} onChanged={proxies.reload} onRename={() => setRenaming(p)} />)}</Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {proxies.data && proxies.data.total_rows > 0 && <Pager noun="proxies" info={proxies.data} onPage={(p) => setQuery({ page: p })} />}
      <AddProxyModal opened={dialog === 'add'} onClose={() => setDialog(null)} onAdded={proxies.reload} />
      <ImportModal opened={dialog === 'import'} onClose={() => setDialog(null)} onImported={proxies.reload} />
      <RenameModal proxy={renaming} onClose={() => setRenaming(null)} onSaved={proxies.reload} />
    </Stack>
  );
}

function ProxyRow({ proxy: p, onChanged, onRename }: { proxy: Proxy; onChanged: () => void; onRename: () => void }) {
  const check = useAction(async () => {
    await unwrap(api.POST('/api/proxy/{id}/validate', { params: { path: { id: p.id } } }));
    onChanged();
  });
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>{proxyName(p)}</Text>
        <Text size="xs" c="dimmed" className="mono">{p.scheme}://{p.username ? `${p.username}@` : ''}{p.host}:{p.port}{p.gateway ? ` · ${p.gateway}` : ''}</Text>
      </Table.Td>
      <Table.Td>
        <StatusBadge value={p.status} />
        {p.last_error && <Text size="xs" c={TEXT.danger} mt={2}>{p.last_error.replace(/_/g, ' ')}</Text>}
        {check.error ? <Text size="xs" c={TEXT.danger} mt={2} role="alert">{check.error instanceof Error ? check.error.message : 'The check failed'}</Text> : null}
      </Table.Td>
      <Table.Td><Text size="sm" className="mono">{p.last_exit_ip ?? '—'}</Text>{p.last_exit_country && <Text size="xs" c="dimmed">{p.last_exit_country}</Text>}</Table.Td>
      <Table.Td><Text size="sm">{p.last_latency_ms !== undefined ? `${p.last_latency_ms} ms` : '—'}</Text></Table.Td>
      <Table.Td><Text size="sm"><Time value={p.last_check_at} empty="Never" /></Text></Table.Td>
      <Table.Td ta="right">
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="light" loading={check.pending} onClick={() => void check.run()} aria-label={`${check.pending ? 'Checking' : 'Check now'} ${proxyName(p)}`}>{check.pending ? 'Checking' : 'Check now'}</Button>
          <Button size="xs" variant="subtle" onClick={onRename} aria-label={`Rename ${proxyName(p)}`}>Rename</Button>
          <Confirm title="Delete this proxy?" confirmLabel="Delete proxy" onConfirm={async () => { await unwrap(api.DELETE('/api/proxy/{id}', { params: { path: { id: p.id } } })); onChanged(); }}
            trigger={(open) => <Button size="xs" variant="subtle" c={TEXT.danger} onClick={open} aria-label={`Delete ${proxyName(p)}`}>Delete</Button>}>
            {proxyName(p)} is removed, with its assignments to devices.
          </Confirm>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function RenameModal({ proxy, onClose, onSaved }: { proxy: Proxy | null; onClose: () => void; onSaved: () => void }) {
  const [label, setLabel] = useState('');
  const [shownFor, setShownFor] = useState<number | null>(null);
  if (proxy && shownFor !== proxy.id) {
    setShownFor(proxy.id);
    setLabel(proxy.label ?? '');
  }
  const save = useAction(async () => {
    if (!proxy) return;
    await unwrap(api.PUT('/api/proxy/{id}', { params: { path: { id: proxy.id } }, body: { label: label.trim() ? label : null } }));
    onSaved();
    setShownFor(null);
    onClose();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  return (
    <Modal opened={proxy !== null} onClose={() => { setShownFor(null); onClose(); }} title={<Text fw={650}>Rename proxy</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={save.error} title="Not saved" />
          <TextInput label="Label" description="Empty: show the address" maxLength={100} value={label} onChange={(e) => setLabel(e.currentTarget.value)} data-autofocus />
          <Group justify="flex-end"><Button variant="default" onClick={onClose}>Cancel</Button><Button type="submit" loading={save.pending}>Save</Button></Group>
        </Stack>
      </form>
    </Modal>
  );
}
