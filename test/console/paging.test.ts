// Lists whose route answers every row (keys, profiles, endpoints, assignments) are paged in
// the page; the shared table reads them as a paged answer.
import { expect, test } from 'vitest';
import { allPages, pageLocally } from '../../web/src/lib/paging.js';

const rows = Array.from({ length: 45 }, (_, i) => i + 1);
const loaded = (data: number[]) => ({ data, error: undefined, loading: false });

test('a page of the list, with the counts a paged route would give', () => {
  expect(pageLocally(loaded(rows), 2, 20).data).toEqual({ page: 2, page_size: 20, total_rows: 45, total_pages: 3, rows: rows.slice(20, 40) });
});

test('a page past the end shows the last one (a row was removed from the last page)', () => {
  expect(pageLocally(loaded(rows), 9, 20).data).toMatchObject({ page: 3, rows: [41, 42, 43, 44, 45] });
});

test('an empty list is one empty page', () => {
  expect(pageLocally(loaded([]), 1, 20).data).toEqual({ page: 1, page_size: 20, total_rows: 0, total_pages: 1, rows: [] });
});

test('while loading, or after an error, there is no page yet', () => {
  expect(pageLocally({ error: undefined, loading: true }, 1, 20)).toEqual({ error: undefined, loading: true });
  const error = new Error('down');
  expect(pageLocally({ error, loading: false }, 1, 20)).toEqual({ error, loading: false });
});

test('allPages reads a paged route to its last page, 200 rows at a time (choices do not stop at 200)', async () => {
  const all = Array.from({ length: 1450 }, (_, i) => i + 1);
  const asked: { page: number; page_size: number }[] = [];
  const read = async (query: { page: number; page_size: number }) => {
    asked.push(query);
    const rows = all.slice((query.page - 1) * query.page_size, query.page * query.page_size);
    return { page: query.page, page_size: query.page_size, total_rows: all.length, total_pages: Math.ceil(all.length / query.page_size), rows };
  };
  expect(await allPages(read)).toEqual(all);
  expect(asked.map((q) => q.page).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(asked.every((q) => q.page_size === 200)).toBe(true);
  // An empty list is one read.
  asked.length = 0;
  expect(await allPages(async (q) => { asked.push(q); return { page: 1, page_size: 200, total_rows: 0, total_pages: 0, rows: [] as number[] }; })).toEqual([]);
  expect(asked).toHaveLength(1);
});
