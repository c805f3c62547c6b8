// The typed clients, generated from the committed openapi.json (`npm run console:types`).
// `api` calls the application's session routes: the browser sends the HttpOnly session
// cookie that sign-in set, so the console never holds the session token. `keyApi` calls the
// key routes with the console key the user chose for this tab (state/console-key.tsx).
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

const baseUrl = window.location.origin;

export const api = createClient<paths>({ baseUrl, credentials: 'same-origin' });

let currentKey: string | null = null;

/** Called by the console-key store only; the key lives in this variable, never in storage. */
export function setKeyForRequests(key: string | null): void {
  currentKey = key;
}

const addKey: Middleware = {
  onRequest({ request }) {
    if (currentKey) request.headers.set('X-API-KEY', currentKey);
    return request;
  },
};

/** Key routes do not need the session cookie; `omit` keeps the two credentials apart. */
export const keyApi = createClient<paths>({ baseUrl, credentials: 'omit' });
keyApi.use(addKey);
