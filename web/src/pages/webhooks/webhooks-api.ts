// Webhook endpoints (at most 10: the whole list), their deliveries, and custom events.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { BodyOf, QueryOf } from '../../api/types';

const at = (id: number) => ({ params: { path: { id } } });
export const listEndpoints = () => unwrap(api.GET('/api/webhooks')).then((answer) => answer.items);
export const createEndpoint = (body: BodyOf<'/api/webhooks', 'post'>) => unwrap(api.POST('/api/webhooks', { body }));
export const updateEndpoint = (id: number, body: BodyOf<'/api/webhooks/{id}', 'put'>) => unwrap(api.PUT('/api/webhooks/{id}', { ...at(id), body }));
export const deleteEndpoint = (id: number) => unwrap(api.DELETE('/api/webhooks/{id}', at(id)));
export const testEndpoint = (id: number) => unwrap(api.POST('/api/webhooks/{id}/test', at(id)));
export const regenerateSecret = (id: number) => unwrap(api.POST('/api/webhooks/{id}/regenerate-secret', at(id)));

export const listDeliveries = (query: QueryOf<'/api/webhooks/deliveries', 'get'> = {}) => unwrap(api.GET('/api/webhooks/deliveries', { params: { query } }));
export const getDelivery = (id: number) => unwrap(api.GET('/api/webhooks/deliveries/{id}', at(id)));
export const redeliver = (id: number) => unwrap(api.POST('/api/webhooks/deliveries/{id}/redeliver', at(id)));

export const sendCustomEvent = (body: BodyOf<'/api/webhooks/events', 'post'>) => unwrap(api.POST('/api/webhooks/events', { body }));
