// The typed client, generated from the committed openapi.json (`npm run console:types`).
// Every call goes with the HttpOnly session cookie that sign-in set, so the console never
// holds the session token. Application routes and key routes alike accept the session
// (docs/decisions/0006-session-on-key-routes.md); the console never sends an API key.
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const baseUrl = window.location.origin;

export const api = createClient<paths>({ baseUrl, credentials: 'same-origin' });
