// API keys: the whole list (at most 25 active), creating one (the whole key comes back
// once), revoking one.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { BodyOf } from '../../api/types';

export const listKeys = () => unwrap(api.GET('/api/api-keys')).then((answer) => answer.items);
export const createKey = (body: BodyOf<'/api/api-keys', 'post'>) => unwrap(api.POST('/api/api-keys', { body }));
export const revokeKey = (id: number) => unwrap(api.DELETE('/api/api-keys/{id}', { params: { path: { id } } }));
