// The proxies: their last check (live or dead, exit address, latency), checking one now,
// renaming and deleting; adding one or importing many.
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { Proxy } from '../../api/types';
import { useLocation } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FilterBar } from '../../components/FilterBar';
import { PlusIcon, ProxyIcon } from '../../components/icons';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { StatusBadge } from '../../components/StatusBadge';
import { Time } from '../../components/Time';
import { useAction, useAsync } from '../../lib/use-async';
import { AddProxyModal } from './AddProxyModal';
import { ImportModal } from './ImportModal';
import { checkProxy, deleteProxy, listProxies, renameProxy } from './proxies-api';
import { TEXT } from '../../theme';

const PAGE_SIZE = 25;
const STATUSES = ['unchecked', 'live', 'dead'] as const;
const MODES = ['byop', 'managed'] as const;

export const proxyName = (p: Proxy) => p.label || `${p.host}:${p.port}`;

/** "Check now": its own progress and error, in the row. */
function CheckButton({ proxy, onChecked }: { proxy: Proxy; onChecked: () => void }) {
  const check = useAction(async () => {
    await checkProxy(proxy.id);
    onChecked();
  });
  return (
    <>
      <Button size="xs" variant="light" loading={check.pending} onClick={() => void check.run()} aria-label={`${check.pending ? 'Checking' : 'Check now'} ${proxyName(proxy)}`}>{check.pending ? 'Checking' : 'Check now'}</Button>
      {check.error ? <Text size="xs" c={TEXT.danger} role="alert">{check.error instanceof Error ? check.error.message : 'The check failed'}</Text> : null}
    </>
  );
}

const COLUMNS: Column<Proxy>[] = [
  {
    header: 'Proxy',
    cell: (p) => (
      <>
        <Text size="sm" fw={600}>{proxyName(p)}</Text>
        <Text size="xs" c="dimmed" className="mono">{p.scheme}://{p.username ? `${p.username}@` : ''}{p.host}:{p.port}{p.gateway ? ` · ${p.gateway}` : ''}</Text>
      </>
    ),
  },
  { header: 'Status', cell: (p) => <><StatusBadge value={p.status} />{p.last_error && <Text size="xs" c={TEXT.danger} mt={2}>{p.last_error.replace(/_/g, ' ')}</Text>}</> },
  { header: 'Exit', cell: (p) => <><Text size="sm" className="mono">{p.last_exit_ip ?? '—'}</Text>{p.last_exit_country && <Text size="xs" c="dimmed">{p.last_exit_country}</Text>}</> },
  { header: 'Latency', cell: (p) => <Text size="sm">{p.last_latency_ms !== undefined ? `${p.last_latency_ms} ms` : '—'}</Text> },
  { header: 'Checked', cell: (p) => <Text size="sm"><Time value={p.last_check_at} empty="Never" /></Text> },
];

export function ProxyListTab() {
  const { query } = useLocation();
  const page = pageFrom(query);
  const status = STATUSES.find((s) => s === query.get('status'));
  const mode = MODES.find((m) => m === query.get('mode'));
  const proxies = useAsync(() => listProxies({ page, page_size: PAGE_SIZE, ...(status ? { status } : {}), ...(mode ? { mode } : {}) }), [page, status, mode]);
  const [dialog, setDialog] = useState<'add' | 'import' | null>(null);
  const [renaming, setRenaming] = useState<Proxy | null>(null);
  const filtered = Boolean(status || mode);
  return (
    <Stack gap={0}>
      <ResourceTable
        noun="proxy"
        nouns="proxies"
        list={proxies}
        columns={COLUMNS}
        rowKey={(p) => p.id}
        minWidth={880}
        toolbar={
          <>
            <FilterBar
              label="Filter proxies"
              filtered={filtered}
              fields={[
                { kind: 'select', param: 'status', label: 'Status', placeholder: 'Any status', width: 160, data: STATUSES.map((s) => ({ value: s, label: s })) },
                { kind: 'select', param: 'mode', label: 'Kind', placeholder: 'Any kind', width: 180, data: [{ value: 'byop', label: 'Your own proxies' }, { value: 'managed', label: 'Managed' }] },
              ]}
            />
            <Group gap="sm">
              <Button variant="default" onClick={() => setDialog('import')}>Import</Button>
              <Button leftSection={<PlusIcon size={16} />} onClick={() => setDialog('add')}>Add proxy</Button>
            </Group>
          </>
        }
        filtered={filtered}
        empty={{
          icon: <ProxyIcon size={22} />,
          title: 'No proxies yet',
          body: 'Add your own HTTP, HTTPS or SOCKS5 proxies, then assign them to devices.',
          action: <Button onClick={() => setDialog('import')}>Import a list</Button>,
        }}
        rowActions={(p) => (
          <>
            <CheckButton proxy={p} onChecked={proxies.reload} />
            <Button size="xs" variant="subtle" onClick={() => setRenaming(p)} aria-label={`Rename ${proxyName(p)}`}>Rename</Button>
          </>
        )}
        remove={{
          buttonLabel: (p) => `Delete ${proxyName(p)}`,
          title: 'Delete this proxy?',
          confirmLabel: 'Delete proxy',
          body: (p) => <>{proxyName(p)} is removed, with its assignments to devices.</>,
          run: async (p) => {
            await deleteProxy(p.id);
            proxies.reload();
          },
        }}
      />
      <AddProxyModal opened={dialog === 'add'} onClose={() => setDialog(null)} onAdded={proxies.reload} />
      <ImportModal opened={dialog === 'import'} onClose={() => setDialog(null)} onImported={proxies.reload} />
      <RenameModal proxy={renaming} onClose={() => setRenaming(null)} onSaved={proxies.reload} />
    </Stack>
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
    await renameProxy(proxy.id, label.trim() ? label : null);
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
