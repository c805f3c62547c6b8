// Every row of a paged list (`page`, `page_size`, `total_rows`, `total_pages`, `rows`), page
// after page, fetched as the loop asks for them.

export interface Page<Row> {
  page: number;
  page_size: number;
  total_rows: number;
  total_pages: number;
  rows: Row[];
}

/**
 * Yields every row of every page, from page 1 until the last. Lists are newest first, so a
 * row added while the loop runs lands on page 1 and pushes older rows down a page: a row
 * seen on one page and again on the next is yielded once (rows are told apart by `id`). A row
 * added after the loop passed page 1 is not yielded; start again to see it.
 */
export async function* paginate<Row>(fetchPage: (page: number) => Promise<Page<Row>>): AsyncGenerator<Row, void, undefined> {
  const seen = new Set<unknown>();
  for (let page = 1; ; page++) {
    const answer = await fetchPage(page);
    for (const row of answer.rows) {
      const id = (row as { id?: unknown } | null)?.id;
      if (id !== undefined) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      yield row;
    }
    if (answer.rows.length === 0 || page >= answer.total_pages) return;
  }
}

/** Collects an async iterable into an array (`await all(svc.devices.all())`). */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
