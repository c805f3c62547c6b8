// Macros and what belongs to one: its details and block program, its code (state and zip
// upload), its settings profiles, and the published block-program schema the editor checks
// against.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { BodyOf, QueryOf } from '../../api/types';
import { allPages } from '../../lib/paging';
import type { Schema } from '../../lib/schema-check';

export const listMacros = (query: QueryOf<'/api/macros', 'get'> = {}) => unwrap(api.GET('/api/macros', { params: { query } }));
/** Every macro, all pages: for choices in forms and names in rows. */
export const allMacros = () => allPages((page) => listMacros(page));
export const getMacro = (id: number) => unwrap(api.GET('/api/macros/{id}', { params: { path: { id } } }));
export const createMacro = (body: BodyOf<'/api/macros', 'post'>) => unwrap(api.POST('/api/macros', { body }));
export const updateMacro = (id: number, body: BodyOf<'/api/macros/{id}', 'put'>) => unwrap(api.PUT('/api/macros/{id}', { params: { path: { id } }, body }));
export const deleteMacro = (id: number) => unwrap(api.DELETE('/api/macros/{id}', { params: { path: { id } } }));

/** The console reads the summary: a macro without code is `synced: false`, not a 404 the browser would log. */
export const codeSummary = (id: number) => unwrap(api.GET('/api/macros/{id}/code-summary', { params: { path: { id } } }));
export const uploadCode = (id: number, body: BodyOf<'/api/macros/{id}/code-snapshot', 'post'>) =>
  unwrap(api.POST('/api/macros/{id}/code-snapshot', { params: { path: { id } }, body }));

/** A macro's settings profiles: the whole list (a macro has few). */
export const listProfiles = (macroId: number) => unwrap(api.GET('/api/macro-setting-profiles', { params: { query: { macro_id: macroId } } })).then((answer) => answer.items);
export const createProfile = (body: BodyOf<'/api/macro-setting-profiles', 'post'>) => unwrap(api.POST('/api/macro-setting-profiles', { body }));
export const updateProfile = (id: number, body: BodyOf<'/api/macro-setting-profiles/{id}', 'put'>) =>
  unwrap(api.PUT('/api/macro-setting-profiles/{id}', { params: { path: { id } }, body }));
export const deleteProfile = (id: number) => unwrap(api.DELETE('/api/macro-setting-profiles/{id}', { params: { path: { id } } }));

/** The route answers application/schema+json, which the generated types leave untyped. */
export const blockProgramSchema = () => unwrap(api.GET('/schemas/block-program.json', { parseAs: 'json' })).then((body) => body as unknown as Schema);
