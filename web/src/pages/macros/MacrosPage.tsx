// Macros: the list with a name filter and paging, and a way to create one.
import { Anchor, Badge, Button, Card, Group, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { Link, setQuery, useLocation } from '../../app/router';
import { Empty } from '../../components/Empty';
import { ErrorAlert } from '../../components/ErrorAlert';
import { CodeIcon, PlusIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { Pager, pageFrom } from '../../components/Pager';
import { Time } from '../../components/Time';
import { useAsync } from '../../lib/use-async';
import { CreateMacroModal } from './CreateMacroModal';

const PAGE_SIZE = 20;

export function KindBadge({ kind }: { kind: 'python' | 'block' }) {
  return (
    <Badge variant="light" color={kind === 'python' ? 'blue' : 'violet'} tt="none">
      {kind === 'python' ? 'Python' : 'Block'}
    </Badge>
  );
}

export function MacrosPage() {
  const { query } = useLocation();
  const page = pageFrom(query);
  const name = query.get('name') ?? '';
  const [search, setSearch] = useState(name);
  const [debounced] = useDebouncedValue(search, 300);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    if (debounced !== name) setQuery({ name: debounced.trim() || undefined, page: undefined });
  }, [debounced, name]);

  const macros = useAsync(
    () => unwrap(api.GET('/api/macros', { params: { query: { page, page_size: PAGE_SIZE, ...(name ? { name } : {}) } } })),
    [page, name],
  );
  const rows = macros.data?.rows ?? [];

  return (
    <>
      <PageHeader
        title="Macros"
        description="Python macros run your code; block macros run a block program. Devices follow a macro and one of its settings profiles."
        actions={<Button leftSection={<PlusIcon size={16} />} onClick={() => setCreating(true)}>New macro</Button>}
      />
      <ErrorAlert error={macros.error} title="Could not load macros" />
      <Card p={0}>
        <Group px="lg" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <TextInput aria-label="Filter by name" placeholder="Filter by name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={320} />
        </Group>
        {macros.loading && !macros.data ? (
          <Loading label="Loading macros…" />
        ) : rows.length === 0 ? (
          name ? (
            <Empty icon={<CodeIcon size={22} />} title="No macros match">No macro name contains “{name}”.</Empty>
          ) : (
            <Empty icon={<CodeIcon size={22} />} title="No macros yet" action={<Button onClick={() => setCreating(true)}>Create your first macro</Button>}>
              A macro is what a device runs: your Python code, or a block program.
            </Empty>
          )
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Description</Table.Th>
                  <Table.Th>Updated</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((macro) => (
                  <Table.Tr key={macro.id}>
                    <Table.Td><Anchor component={Link} to={`/macros/${macro.id}`} fw={600} size="sm">{macro.name}</Anchor></Table.Td>
                    <Table.Td><KindBadge kind={macro.kind} /></Table.Td>
                    <Table.Td maw={360}><Text size="sm" c="dimmed" truncate="end">{macro.description || '—'}</Text></Table.Td>
                    <Table.Td><Text size="sm"><Time value={macro.updated_at} /></Text></Table.Td>
                    <Table.Td><Text size="sm"><Time value={macro.created_at} /></Text></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {macros.data && macros.data.total_rows > 0 && <Pager noun="macros" info={macros.data} onPage={(p) => setQuery({ page: p })} />}
      <CreateMacroModal opened={creating} onClose={() => setCreating(false)} />
    </>
  );
}
