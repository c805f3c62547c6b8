// The marketplace's routes (/api/marketplace/…): searching listings, one listing with its
// versions and trust figures, installing a version, reviews, and the author's side (publish a
// macro, a new version, change or delete a listing). Every call goes with the session cookie.
import { api } from '../../api/client';
import { ApiError, unwrap } from '../../api/errors';
import type { BodyOf, QueryOf, ResponseOf } from '../../api/types';

export type Listing = ResponseOf<'/api/marketplace/listings', 'get'>['rows'][number];
export type ListingDetail = ResponseOf<'/api/marketplace/listings/{id}', 'get'>;
export type Review = ResponseOf<'/api/marketplace/listings/{id}/reviews', 'get'>['rows'][number];
export type ListingQuery = QueryOf<'/api/marketplace/listings', 'get'>;
export type ListingSort = NonNullable<ListingQuery['sort']>;

const at = (id: number) => ({ params: { path: { id } } });
export const searchListings = (query: ListingQuery) => unwrap(api.GET('/api/marketplace/listings', { params: { query } }));
export const getListing = (id: number) => unwrap(api.GET('/api/marketplace/listings/{id}', at(id)));
export const installListing = (id: number, version?: number) =>
  unwrap(api.POST('/api/marketplace/listings/{id}/install', { ...at(id), body: version === undefined ? {} : { version } }));
export const listReviews = (id: number, page: number, pageSize: number) =>
  unwrap(api.GET('/api/marketplace/listings/{id}/reviews', { params: { path: { id }, query: { page, page_size: pageSize } } }));
export const writeReview = (id: number, body: BodyOf<'/api/marketplace/listings/{id}/review', 'put'>) =>
  unwrap(api.PUT('/api/marketplace/listings/{id}/review', { ...at(id), body }));

export const publishListing = (body: BodyOf<'/api/marketplace/listings', 'post'>) => unwrap(api.POST('/api/marketplace/listings', { body }));
export const publishVersion = (id: number, body: BodyOf<'/api/marketplace/listings/{id}/versions', 'post'>) =>
  unwrap(api.POST('/api/marketplace/listings/{id}/versions', { ...at(id), body }));
export const updateListing = (id: number, body: BodyOf<'/api/marketplace/listings/{id}', 'put'>) => unwrap(api.PUT('/api/marketplace/listings/{id}', { ...at(id), body }));
export const deleteListing = (id: number) => unwrap(api.DELETE('/api/marketplace/listings/{id}', at(id)));

/** Where a 422 `secret_found` found each secret: the file (or `blocks`, `args`) and line, never the secret. */
export interface SecretFinding {
  path: string;
  line?: number;
  kind: string;
  label: string;
}

export function secretFindingsOf(error: unknown): SecretFinding[] {
  if (!(error instanceof ApiError) || error.code !== 'secret_found') return [];
  const findings = error.details.findings;
  return Array.isArray(findings) ? (findings as SecretFinding[]).filter((f) => typeof f?.path === 'string' && typeof f.label === 'string') : [];
}

/** "Tags, comma or space separated" to the API's list: lower-case, `a-z0-9-`, once each. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((t) => t.trim().toLowerCase()).filter(Boolean))];
}

/** Moves one of your installed copies to another version of its listing (it never moves on its own). */
export const moveInstalledCopy = (macroId: number, version: number) =>
  unwrap(api.PUT('/api/marketplace/installed/{macro_id}', { params: { path: { macro_id: macroId } }, body: { version } }));
