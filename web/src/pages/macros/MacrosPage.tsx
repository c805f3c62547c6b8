// Macros: the list with a name filter and paging, and a way to create one.
import { Anchor, Badge, Button, Text } from '@mantine/core';
import { useState } from 'react';
import type { Macro } from '../../api/types';
import { Link, useLocation } from '../../app/router';
import { FilterBar } from '../../components/FilterBar';
import { CodeIcon, PlusIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { CreateMacroModal } from './CreateMacroModal';
import { listMacros } from './macros-api';

const PAGE_SIZE = 20;

export function KindBadge({ kind }: { kind: 'python' | 'block' }) {
  return (
    <Badge variant="light" color={kind === 'python' ? 'blue' : 'violet'} tt="none">
      {kind === 'python' ? 'Python' : 'Block'}
    </Badge>
  );
}

const COLUMNS: Column<Macro>[] = [
  { header: 'Name', cell: (m) => <Anchor component={Link} to={`/macros/${m.id}`} fw={600} size="sm">{m.name}</Anchor> },
  { header: 'Kind', cell: (m) => <KindBadge kind={m.kind} /> },
  { header: 'Description', maxWidth: 360, cell: (m) => <Text size="sm" c="dimmed" truncate="end">{m.description || '—'}</Text> },
  { header: 'Updated', cell: (m) => <Text size="sm"><Time value={m.updated_at} /></Text> },
  { header: 'Created', cell: (m) => <Text size="sm"><Time value={m.created_at} /></Text> },
];

export function MacrosPage() {
  const { query } = useLocation();
  const page = pageFrom(query);
  const name = query.get('name') ?? '';
  const [creating, setCreating] = useState(false);
  const macros = useAsync(() => listMacros({ page, page_size: PAGE_SIZE, ...(name ? { name } : {}) }), [page, name]);
  return (
    <>
      <PageHeader
        title="Macros"
        description="Python macros run your code; block macros run a block program. Devices follow a macro and one of its settings profiles."
        actions={<Button leftSection={<PlusIcon size={16} />} onClick={() => setCreating(true)}>New macro</Button>}
      />
      <ResourceTable
        noun="macro"
        list={macros}
        columns={COLUMNS}
        rowKey={(m) => m.id}
        minWidth={760}
        toolbar={<FilterBar label="Filter macros" filtered={name !== ''} fields={[{ kind: 'text', param: 'name', label: 'Filter by name', width: 320 }]} />}
        filtered={name !== ''}
        noMatch={{ body: <>No macro name contains “{name}”.</> }}
        empty={{
          icon: <CodeIcon size={22} />,
          title: 'No macros yet',
          body: 'A macro is what a device runs: your Python code, or a block program.',
          action: <Button onClick={() => setCreating(true)}>Create your first macro</Button>,
        }}
      />
      <CreateMacroModal opened={creating} onClose={() => setCreating(false)} />
    </>
  );
}
