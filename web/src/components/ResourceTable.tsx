// One list of resources, the way every list page shows it: filters and buttons above, then
// "Loading…", the API's error, an empty state (nothing yet, or nothing matches the filters),
// or the table with each row's actions and a delete that asks first; the pager below, in the
// query string. A new area's list page is its data call, its columns and this.
import { Button, Card, Group, Table } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import type { Paged } from '../api/types';
import { setQuery } from '../app/router';
import { TEXT } from '../theme';
import { Confirm } from './Confirm';
import { Empty } from './Empty';
import { ErrorAlert } from './ErrorAlert';
import { Loading } from './Loading';
import { Pager } from './Pager';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Cells that would stretch the table (a description) are cut at this width. */
  maxWidth?: number;
}

/** Deleting (revoking, removing) a row, after a dialog that says what it means. */
export interface RemoveAction<T> {
  /** The button's text: "Delete" unless said otherwise. */
  verb?: string;
  /** The button's accessible name, naming the row: "Delete Pixel 7". */
  buttonLabel: (row: T) => string;
  title: string;
  confirmLabel: string;
  body: (row: T) => ReactNode;
  run: (row: T) => Promise<unknown>;
  /** Rows that cannot be removed (the Default profile, a revoked key) get no button. */
  allowed?: (row: T) => boolean;
  /** The button is left out; `rowActions` opens the dialog itself (from a menu). */
  noButton?: boolean;
}

export interface ResourceTableProps<T> {
  /** One row ("device") and the plural when it is not noun + "s" ("proxies"). */
  noun: string;
  nouns?: string;
  /** An AsyncState of a page fits; whole-list routes go through `pageLocally` (lib/paging.ts). */
  list: { data?: Paged<T>; error: unknown; loading: boolean };
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  /** A row's own buttons, before its delete; `confirmRemove` opens the delete dialog. */
  rowActions?: (row: T, confirmRemove: () => void) => ReactNode;
  remove?: RemoveAction<T>;
  /** Filters and buttons in the card's header. */
  toolbar?: ReactNode;
  /** A filter is set: an empty answer means nothing matches, not nothing exists. */
  filtered?: boolean;
  empty: { icon: ReactNode; title: string; body: ReactNode; action?: ReactNode };
  noMatch?: { title?: string; body?: ReactNode };
  /** Below this width the table scrolls sideways. */
  minWidth: number;
  /** The query parameter holding the page number. */
  pageParam?: string;
  errorTitle?: string;
}

export function ResourceTable<T>(props: ResourceTableProps<T>) {
  const { noun, nouns = `${noun}s`, list, toolbar, remove, pageParam = 'page' } = props;
  // The row being removed, kept while the dialog closes so its words do not vanish first.
  const [removing, setRemoving] = useState<{ row: T; open: boolean } | null>(null);
  return (
    <>
      <ErrorAlert error={list.error} title={props.errorTitle ?? `Could not load ${nouns}`} />
      <Card p={0}>
        {toolbar && (
          <Group px="lg" py="sm" gap="sm" justify="space-between" wrap="wrap" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
            {toolbar}
          </Group>
        )}
        <Rows {...props} nouns={nouns} onRemove={(row) => setRemoving({ row, open: true })} />
      </Card>
      {list.data && list.data.total_rows > 0 && <Pager noun={noun} nouns={nouns} info={list.data} onPage={(page) => setQuery({ [pageParam]: page })} />}
      {remove && removing && (
        <Confirm title={remove.title} confirmLabel={remove.confirmLabel} opened={removing.open} onClose={() => setRemoving({ ...removing, open: false })} onConfirm={() => remove.run(removing.row)}>
          {remove.body(removing.row)}
        </Confirm>
      )}
    </>
  );
}

function Rows<T>({ list, nouns, columns, rowKey, rowActions, remove, filtered, empty, noMatch, minWidth, onRemove }: ResourceTableProps<T> & { nouns: string; onRemove: (row: T) => void }) {
  if (list.loading && !list.data) return <Loading label={`Loading ${nouns}…`} />;
  const rows = list.data?.rows ?? [];
  if (rows.length === 0) {
    if (!list.data) return null;
    if (filtered) return <Empty icon={empty.icon} title={noMatch?.title ?? `No ${nouns} match`}>{noMatch?.body ?? 'Change or clear the filters above.'}</Empty>;
    return <Empty icon={empty.icon} title={empty.title} action={empty.action}>{empty.body}</Empty>;
  }
  const hasActions = rowActions !== undefined || (remove !== undefined && !remove.noButton);
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => <Table.Th key={column.header}>{column.header}</Table.Th>)}
            {hasActions && <Table.Th><span className="visually-hidden">Actions</span></Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((column) => <Table.Td key={column.header} maw={column.maxWidth}>{column.cell(row)}</Table.Td>)}
              {hasActions && (
                <Table.Td ta="right">
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    {rowActions?.(row, () => onRemove(row))}
                    {remove && !remove.noButton && (remove.allowed?.(row) ?? true) && (
                      <Button size="xs" variant="subtle" c={TEXT.danger} onClick={() => onRemove(row)} aria-label={remove.buttonLabel(row)}>{remove.verb ?? 'Delete'}</Button>
                    )}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
