// Devices (local and cloud rows alike) and device groups: listed, created, changed, deleted.
// What only a cloud device does (start, live view, apps, runs) is in cloud/cloud-api.ts.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { BodyOf, QueryOf } from '../../api/types';
import { allPages } from '../../lib/paging';

export const listDevices = (query: QueryOf<'/api/emulator/devices', 'get'> = {}) => unwrap(api.GET('/api/emulator/devices', { params: { query } }));
export const createLocalDevice = (body: BodyOf<'/api/emulator/devices', 'post'>) => unwrap(api.POST('/api/emulator/devices', { body }));
export const createCloudDevice = (body: BodyOf<'/api/hosted/devices', 'post'>) => unwrap(api.POST('/api/hosted/devices', { body }));
export const updateDevice = (id: number, body: BodyOf<'/api/emulator/devices/{id}', 'put'>) =>
  unwrap(api.PUT('/api/emulator/devices/{id}', { params: { path: { id } }, body }));
export const deleteDevice = (id: number) => unwrap(api.DELETE('/api/emulator/devices/{id}', { params: { path: { id } } }));

export const listGroups = (query: QueryOf<'/api/emulator/groups', 'get'> = {}) => unwrap(api.GET('/api/emulator/groups', { params: { query } }));
export const createGroup = (body: BodyOf<'/api/emulator/groups', 'post'>) => unwrap(api.POST('/api/emulator/groups', { body }));
export const updateGroup = (id: number, body: BodyOf<'/api/emulator/groups/{id}', 'put'>) =>
  unwrap(api.PUT('/api/emulator/groups/{id}', { params: { path: { id } }, body }));
export const deleteGroup = (id: number) => unwrap(api.DELETE('/api/emulator/groups/{id}', { params: { path: { id } } }));

type ListQuery<P extends '/api/emulator/devices' | '/api/emulator/groups'> = Omit<QueryOf<P, 'get'>, 'page' | 'page_size'>;

/** Every device, all pages: for choices in forms and filters and for names in rows. */
export const allDevices = (query: ListQuery<'/api/emulator/devices'> = {}) => allPages((page) => listDevices({ ...query, ...page }));
/** Every group, all pages. */
export const allGroups = (query: ListQuery<'/api/emulator/groups'> = {}) => allPages((page) => listGroups({ ...query, ...page }));
