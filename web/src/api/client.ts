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

const rejectionListeners = new Set<(message: string) => void>();

/** Told when the service refuses the tab's key (revoked, expired): the key is dropped. */
export function onKeyRejected(listener: (message: string) => void): () => void {
  rejectionListeners.add(listener);
  return () => rejectionListeners.delete(listener);
}

const addKey: Middleware = {
  onRequest({ request }) {
    // A request that names its own key (checking a pasted one) keeps it.
    if (currentKey && !request.headers.has('X-API-KEY')) request.headers.set('X-API-KEY', currentKey);
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status === 401 && request.headers.get('X-API-KEY') === currentKey && currentKey !== null) {
      const body = (await response.clone().json().catch(() => null)) as { message?: string } | null;
      for (const listener of rejectionListeners) listener(body?.message ?? 'The service refused the key.');
    }
    return response;
  },
};

/** Key routes do not need the session cookie; `omit` keeps the two credentials apart. */
export const keyApi = createClient<paths>({ baseUrl, credentials: 'omit' });
keyApi.use(addKey);
