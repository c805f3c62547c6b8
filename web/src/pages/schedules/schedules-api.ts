// Schedules and their occurrences (app-api.md "Scheduler").
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { BodyOf, QueryOf } from '../../api/types';

const at = (id: number) => ({ params: { path: { id } } });
export const listSchedules = (query: QueryOf<'/api/schedules', 'get'> = {}) => unwrap(api.GET('/api/schedules', { params: { query } }));
export const createSchedule = (body: BodyOf<'/api/schedules', 'post'>) => unwrap(api.POST('/api/schedules', { body }));
export const getSchedule = (id: number) => unwrap(api.GET('/api/schedules/{id}', at(id)));
export const updateSchedule = (id: number, body: BodyOf<'/api/schedules/{id}', 'put'>) => unwrap(api.PUT('/api/schedules/{id}', { ...at(id), body }));
export const deleteSchedule = (id: number) => unwrap(api.DELETE('/api/schedules/{id}', at(id)));
export const listOccurrences = (id: number, query: QueryOf<'/api/schedules/{id}/occurrences', 'get'> = {}) =>
  unwrap(api.GET('/api/schedules/{id}/occurrences', { params: { path: { id }, query } }));
