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
