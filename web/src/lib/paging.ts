// Paging in the page, for routes that answer their whole list (keys, profiles, endpoints,
// assignments), in the shape of a paged answer so the shared table shows both alike.

/** The paged-list shape of service-api.md. */
export interface Paged<T> {
  page: number;
  page_size: number;
  total_rows: number;
  total_pages: number;
  rows: T[];
}

/**
 * A page of a route that answers its whole list (keys, profiles, endpoints, assignments):
 * the rows of `page` (the last page when it is past the end), in the shape of a paged answer.
 */
export function pageLocally<T>(list: { data?: T[]; error: unknown; loading: boolean }, page: number, pageSize: number): { data?: Paged<T>; error: unknown; loading: boolean } {
  if (!list.data) return { error: list.error, loading: list.loading };
  const total = list.data.length;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(pages, page);
  return {
    error: list.error,
    loading: list.loading,
    data: { page: current, page_size: pageSize, total_rows: total, total_pages: pages, rows: list.data.slice((current - 1) * pageSize, current * pageSize) },
  };
}

/** The largest page a paged route gives (service-api.md: `page_size` at most 200). */
export const LARGEST_PAGE = 200;

/** Pages read at once after the first: enough to be quick, few enough to stay under a rate limit. */
const PARALLEL_PAGES = 4;

/**
 * Every row of a paged route, 200 at a time to its last page: choices in forms and names in
 * rows must not stop silently at the first page. After the first answer (which says how many
 * pages there are) the rest are read four at a time.
 */
export async function allPages<T>(readPage: (query: { page: number; page_size: number }) => Promise<Paged<T>>): Promise<T[]> {
  const first = await readPage({ page: 1, page_size: LARGEST_PAGE });
  const rows = [...first.rows];
  for (let page = 2; page <= first.total_pages; page += PARALLEL_PAGES) {
    const batch = Array.from({ length: Math.min(PARALLEL_PAGES, first.total_pages - page + 1) }, (_, i) => readPage({ page: page + i, page_size: LARGEST_PAGE }));
    for (const answer of await Promise.all(batch)) rows.push(...answer.rows);
  }
  return rows;
}
