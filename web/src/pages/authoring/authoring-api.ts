// Authoring-agent sessions: start, list, read, follow by cursor, answer, stop; the month's AI
// credits; the cloud devices a session can work on and the code macros its files can go to.
// Every call goes with the session cookie. Without a model endpoint every authoring route
// answers 503 `authoring_unavailable` (the page says so and how to configure it).
import { api } from '../../api/client';
import { ApiError, unwrap } from '../../api/errors';
import type { BodyOf, QueryOf } from '../../api/types';
import { buildZip } from '../../lib/zip-write';
import { readZipTree, toBase64 } from '../../lib/zip-tree';
import { allDevices } from '../devices/devices-api';
import { allMacros, uploadCode } from '../macros/macros-api';

const at = (id: number) => ({ params: { path: { id } } });
export const listSessions = (query: QueryOf<'/api/authoring/sessions', 'get'> = {}) => unwrap(api.GET('/api/authoring/sessions', { params: { query } }));
export const startSession = (body: BodyOf<'/api/authoring/sessions', 'post'>) => unwrap(api.POST('/api/authoring/sessions', { body }));
export const getSession = (id: number) => unwrap(api.GET('/api/authoring/sessions/{id}', at(id)));
export const readMessages = (id: number, cursor?: string) =>
  unwrap(api.GET('/api/authoring/sessions/{id}/messages', { params: { path: { id }, query: cursor === undefined ? {} : { cursor } } }));
export const answerSession = (id: number, answer: string) => unwrap(api.POST('/api/authoring/sessions/{id}/answer', { ...at(id), body: { answer } }));
export const stopSession = (id: number) => unwrap(api.POST('/api/authoring/sessions/{id}/stop', at(id)));
export const readCredits = () => unwrap(api.GET('/api/billing/credits'));

/** Your cloud devices (every page), for the session's device choice. */
export const cloudDevices = () => allDevices().then((rows) => rows.filter((d) => d.is_hosted));
/** Your code macros (every page): where a finished session's files can be installed. */
export const codeMacros = () => allMacros().then((rows) => rows.filter((m) => m.kind === 'python'));

/** A small picture of the device's screen now (JPEG, longest edge 240 px). */
export const screenThumbnail = async (deviceId: number): Promise<string> =>
  URL.createObjectURL((await unwrap(api.GET('/api/hosted/devices/{id}/screenshot', { params: { path: { id: deviceId }, query: { format: 'jpeg', max_edge: 240 } }, parseAs: 'blob' }))) as Blob);

/**
 * Installs a finished session's files as a code macro's current code: the same zip upload the
 * macro page makes (POST /api/macros/{id}/code-snapshot), with the zip built here.
 */
export async function installFiles(macroId: number, files: ProjectFile[]) {
  const zip = buildZip(files.map((f) => ({ path: f.path, content: new TextEncoder().encode(f.content) })));
  const tree = await readZipTree(zip);
  return uploadCode(macroId, { zip_file_base64: toBase64(zip), worktree_hash: tree.worktreeHash });
}

/** The server has no model endpoint: the page explains instead of offering to start. */
export const isUnavailable = (error: unknown) => error instanceof ApiError && error.code === 'authoring_unavailable';

export type AuthoringSession = Awaited<ReturnType<typeof getSession>>;
export type AuthoringMessage = Awaited<ReturnType<typeof readMessages>>['messages'][number];
export type ProjectFile = NonNullable<AuthoringSession['files']>[number];
export type Credits = Awaited<ReturnType<typeof readCredits>>;
export const isLive = (s: { state: string }) => s.state === 'working' || s.state === 'waiting_for_answer';
