// The filters above every list, the same way on every page: text filters and choices kept in
// the query string (QueryFilters.tsx), named to assistive technology, in one search landmark,
// and "Clear filters" once any is set. A page states its fields and whether a filter is set.
import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { setQuery } from '../app/router';
import { QuerySelect, type QuerySelectProps, QueryTextFilter, type QueryTextFilterProps } from './QueryFilters';

export type FilterField = ({ kind: 'text' } & Omit<QueryTextFilterProps, 'visibleLabel'>) | ({ kind: 'select' } & Omit<QuerySelectProps, 'visibleLabel'>);

export interface FilterBarProps {
  /** The landmark's name, saying what is filtered: "Filter images". */
  label: string;
  fields: FilterField[];
  /** A filter is set (the page's own reading, as it tells ResourceTable): "Clear filters" shows. */
  filtered: boolean;
  /** Field labels shown above the fields too, not only to assistive technology. */
  visibleLabels?: boolean;
  /** The page's own fields (a date range), after the shared ones. */
  children?: ReactNode;
  /** The query parameters `children` write, cleared with the rest. */
  extraParams?: string[];
}

/**
 * "Clear filters" empties every field and goes back to the first page; a choice that is
 * always made (a sort order, `fallback`) is not a filter and stays.
 */
export function FilterBar({ label, fields, filtered, visibleLabels, children, extraParams = [] }: FilterBarProps) {
  const cleared = [...fields.filter((f) => f.kind === 'text' || f.fallback === undefined).map((f) => f.param), ...extraParams, 'page'];
  return (
    <Group role="search" aria-label={label} gap="sm" align={visibleLabels ? 'flex-end' : undefined} wrap="wrap">
      {fields.map((field) =>
        field.kind === 'text' ? <QueryTextFilter key={field.param} {...field} visibleLabel={visibleLabels} /> : <QuerySelect key={field.param} {...field} visibleLabel={visibleLabels} />,
      )}
      {children}
      {filtered && <Button variant="subtle" onClick={() => setQuery(Object.fromEntries(cleared.map((param) => [param, undefined])))}>Clear filters</Button>}
    </Group>
  );
}
