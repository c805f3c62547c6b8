// Menu maps: the learned maps, one app's map, explorations (start, follow, stop), and the
// cloud devices an exploration can run on. Every call goes with the session cookie.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { BodyOf } from '../../api/types';
import { allDevices } from '../devices/devices-api';

export const listMaps = () => unwrap(api.GET('/api/maps')).then((answer) => answer.items);
export const getMap = (pkg: string) => unwrap(api.GET('/api/maps/{package}', { params: { path: { package: pkg } } }));
export const deleteMap = (pkg: string) => unwrap(api.DELETE('/api/maps/{package}', { params: { path: { package: pkg } } }));
export const startExploration = (body: BodyOf<'/api/maps/explorations', 'post'>) => unwrap(api.POST('/api/maps/explorations', { body }));
export const getExploration = (id: number) => unwrap(api.GET('/api/maps/explorations/{id}', { params: { path: { id } } }));
export const stopExploration = (id: number) => unwrap(api.POST('/api/maps/explorations/{id}/stop', { params: { path: { id } } }));
/** Your cloud devices (every page), for the exploration's device choice. */
export const cloudDevices = () => allDevices().then((rows) => rows.filter((d) => d.is_hosted));

export const thumbnailUrl = (imageId: string) => `/api/images/${imageId}/content`;

export type MenuMap = Awaited<ReturnType<typeof getMap>>;
export type Exploration = Awaited<ReturnType<typeof getExploration>>;
