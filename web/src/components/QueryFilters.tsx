// Filters kept in the query string, so a filtered list can be linked, reloaded and left with
// Back: a text filter written 300 ms after typing stops, and a choice. Changing either goes
// back to the first page.
import { Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { setQuery, useLocation } from '../app/router';

export interface QueryTextFilterProps {
  param: string;
  /** Named to assistive technology and shown inside the empty field; above it too when `visibleLabel`. */
  label: string;
  width?: number;
  visibleLabel?: boolean;
}

export function QueryTextFilter({ param, label, width = 220, visibleLabel }: QueryTextFilterProps) {
  const value = useLocation().query.get(param) ?? '';
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text, 300);
  // What the query string last held as far as this field knows: it tells a change made
  // elsewhere (Clear filters) from the field's own, so the field shows the new value rather
  // than writing its old text back.
  const known = useRef(value);
  useEffect(() => {
    if (value === known.current) return;
    known.current = value;
    setText(value);
  }, [value]);
  useEffect(() => {
    const next = debounced.trim();
    if (next === known.current) return;
    known.current = next;
    setQuery({ [param]: next || undefined, page: undefined });
  }, [debounced, param]);
  return <TextInput {...(visibleLabel ? { label } : { 'aria-label': label })} placeholder={label} value={text} onChange={(e) => setText(e.currentTarget.value)} w={width} />;
}

export interface QuerySelectProps {
  param: string;
  /** Named to assistive technology; shown above the field too when `visibleLabel`. */
  label: string;
  data: { value: string; label: string }[];
  placeholder?: string;
  width?: number;
  searchable?: boolean;
  visibleLabel?: boolean;
  /** A choice that is always made (a sort order): this one stays out of the URL. */
  fallback?: string;
}

export function QuerySelect({ param, label, data, placeholder, width = 180, searchable, visibleLabel, fallback }: QuerySelectProps) {
  const raw = useLocation().query.get(param);
  const value = data.some((d) => d.value === raw) || (raw !== null && fallback === undefined) ? raw : (fallback ?? null);
  return (
    <Select
      {...(visibleLabel ? { label } : { 'aria-label': label })}
      placeholder={placeholder}
      w={width}
      searchable={searchable}
      clearable={fallback === undefined}
      allowDeselect={fallback === undefined}
      value={value}
      onChange={(choice) => setQuery({ [param]: choice === fallback ? undefined : choice, page: undefined })}
      data={data}
    />
  );
}
