// Paged lists: {page, page_size, total_rows, total_pages, rows}. Pages start at 1;
// page_size defaults to 50, at most 200. A page past the end is empty with the right totals.
import { type TSchema, Type } from 'typebox';
import { StringEnum } from './schema.js';

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1' })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT, description: 'Rows per page, 1 to 200' })),
};

export function Paged<T extends TSchema>(row: T, id: string) {
  return Type.Object(
    {
      page: Type.Integer(),
      page_size: Type.Integer(),
      total_rows: Type.Integer(),
      total_pages: Type.Integer(),
      rows: Type.Array(row),
    },
    { $id: id },
  );
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

export function pageRequest(query: { page?: number; page_size?: number }): PageRequest {
  return { page: query.page ?? 1, pageSize: query.page_size ?? PAGE_SIZE_DEFAULT };
}

export function offsetOf(request: PageRequest): number {
  return (request.page - 1) * request.pageSize;
}

export function pageOf<T>(request: PageRequest, totalRows: number, rows: T[]) {
  return { page: request.page, page_size: request.pageSize, total_rows: totalRows, total_pages: Math.ceil(totalRows / request.pageSize), rows };
}

/** `sort` accepts each field name, or the name with a leading `-` for descending. */
export function SortQuery<const T extends readonly string[]>(fields: T, fallback: T[number]) {
  const values = [...fields, ...fields.map((f) => `-${f}`)] as `${T[number]}` [];
  return Type.Optional(StringEnum(values, { default: fallback, description: `Sort field; prefix with - for descending. Default ${fallback}.` }));
}

export function parseSort<T extends string>(value: string | undefined, fallback: T): { field: T; direction: 'asc' | 'desc' } {
  const raw = value ?? fallback;
  return raw.startsWith('-') ? { field: raw.slice(1) as T, direction: 'desc' } : { field: raw as T, direction: 'asc' };
}
