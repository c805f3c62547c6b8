// Proxies (added one by one or imported, checked, renamed, deleted), their assignments to
// devices with the connection info, and the traffic through them.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { BodyOf, QueryOf } from '../../api/types';

const at = (id: number) => ({ params: { path: { id } } });
export const listProxies = (query: QueryOf<'/api/proxy', 'get'> = {}) => unwrap(api.GET('/api/proxy', { params: { query } }));
export const addProxy = (body: BodyOf<'/api/proxy', 'post'>) => unwrap(api.POST('/api/proxy', { body }));
export const importProxies = (text: string) => unwrap(api.POST('/api/proxy/import', { body: { proxies: text } }));
export const checkProxy = (id: number) => unwrap(api.POST('/api/proxy/{id}/validate', at(id)));
export const renameProxy = (id: number, label: string | null) => unwrap(api.PUT('/api/proxy/{id}', { ...at(id), body: { label } }));
export const deleteProxy = (id: number) => unwrap(api.DELETE('/api/proxy/{id}', at(id)));

/** Every active assignment (the route answers the whole list). */
export const listAssignments = () => unwrap(api.GET('/api/proxy/assignments')).then((answer) => answer.items);
export const assignProxy = (body: BodyOf<'/api/proxy/assignments', 'post'>) => unwrap(api.POST('/api/proxy/assignments', { body }));
export const unassignProxy = (id: number) => unwrap(api.DELETE('/api/proxy/assignments/{id}', at(id)));
export const connectionInfo = (id: number, reveal: boolean) =>
  unwrap(api.GET('/api/proxy/assignments/{id}/connection-info', { params: { path: { id }, query: { include_secrets: reveal } } }));
/** The assignment of one device (at most one). */
export const deviceProxy = (deviceId: number) =>
  unwrap(api.GET('/api/proxy/devices/{device_id}', { params: { path: { device_id: deviceId } } })).then((answer) => answer.items[0] ?? null);

export const usage = (query: QueryOf<'/api/proxy/usage', 'get'>) => unwrap(api.GET('/api/proxy/usage', { params: { query } }));
