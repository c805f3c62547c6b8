// Paging for every list: where you are, how many there are, and the page links.
import { Group, Pagination, Text } from '@mantine/core';
import { plural } from '../lib/format';

export interface PageInfo {
  page: number;
  page_size: number;
  total_rows: number;
  total_pages: number;
}

/** `noun` is one row ("macro"); `nouns` the plural when adding an "s" is wrong ("proxies"). */
export function Pager({ info, onPage, noun, nouns = `${noun}s` }: { info: PageInfo; onPage: (page: number) => void; noun: string; nouns?: string }) {
  const first = info.total_rows === 0 ? 0 : (info.page - 1) * info.page_size + 1;
  const last = Math.min(info.page * info.page_size, info.total_rows);
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed" aria-live="polite">
        {info.total_rows === 0 ? `No ${nouns}` : `${first}–${last} of ${plural(info.total_rows, noun, nouns)}`}
      </Text>
      {info.total_pages > 1 && (
        <Pagination
          total={info.total_pages}
          value={info.page}
          onChange={onPage}
          size="sm"
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
        />
      )}
    </Group>
  );
}

/** Reads `page` (or another parameter) from the query string: a whole number of at least 1. */
export const pageFrom = (query: URLSearchParams, param = 'page'): number => Math.max(1, Number.parseInt(query.get(param) ?? '1', 10) || 1);
