// Which statuses an operation can answer, derived from its method, its schema and its guard,
// so the published description lists every status a client can meet without each route
// repeating them. The meanings here are the ones the error handler and the guards answer with.
import { isIdempotentRoute, type RouteAuth } from './route-auth.js';

/** Methods whose request body Fastify reads: a client can send one even where none is expected. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RouteShape {
  method: string;
  url: string;
  schema: { params?: unknown; querystring?: unknown; body?: unknown };
  auth: RouteAuth;
  /** The route's own body limit, when it differs from the server's. */
  bodyLimit?: number;
}

const UNAUTHORISED: Record<RouteAuth['kind'], string> = {
  apiKey: '`missing_api_key` (no `X-API-KEY`), `invalid_api_key` (unknown, revoked or expired key) or `api_key_not_user_scoped` (the owner account is gone).',
  toolClient: '`missing_api_key` (no key or token), `invalid_api_key` (unknown, revoked or expired key or token) or `api_key_not_user_scoped`; with `WWW-Authenticate: Bearer resource_metadata=…`.',
  session: '`missing_credentials`: no valid signed-in session (an API key is not accepted here).',
  admin: '`missing_credentials`: the request does not carry `Authorization: Bearer <ADMIN_TOKEN>`.',
  public: '`invalid_credentials`: the email or password is wrong.',
};

/** What each status means, for the response descriptions. */
export function statusMeaning(status: number, route: RouteShape): string {
  switch (status) {
    case 400:
      return 'Bad request (`bad_request`): the URL or body is not valid UTF-8 or percent-encoding, the body is not JSON (or not sent as `application/json`), or it holds a `__proto__` key.';
    case 401:
      return `Unauthorised: ${UNAUTHORISED[route.auth.kind]}`;
    case 402:
      return "Payment required (`subscription_required`): the key's owner has no active subscription or trial.";
    case 403:
      if (route.auth.kind === 'toolClient') return "Forbidden (`origin_not_allowed`): the request's `Origin` is neither BASE_URL's nor one of MCP_ALLOWED_ORIGINS (a request without `Origin` is not checked); scopes are checked per tool.";
      return "Forbidden: `insufficient_scope` when the key's scopes do not cover this route (`details.required_scopes` lists what would), or a more precise code in the description.";
    case 404:
      return route.auth.kind === 'admin'
        ? 'Not found (`not_found`): no such resource, or the admin API is off (the server has no ADMIN_TOKEN).'
        : "Not found (`not_found` or a more precise code in the description): no such resource, or it is someone else's.";
    case 409:
      return 'Conflict: the request clashes with the current state; the description names the codes.';
    case 413:
      return `Payload too large (\`payload_too_large\`): the body is over this route's limit (${route.bodyLimit ? `${route.bodyLimit} bytes` : '1 MiB'}); \`details.limit\` gives it.`;
    case 414:
      return 'URI too long (`uri_too_long`): a path parameter is longer than the server accepts.';
    case 415:
      return 'Unsupported media type (`unsupported_media_type`): the body has a `Content-Encoding` other than identity, or a charset other than UTF-8.';
    case 422:
      return 'Unprocessable (`validation_failed`, or a more precise code in the description): a path, query or body field breaks its rule (text with NUL or lone surrogates included); `details.errors` lists the first few as `[{path, message}]`.';
    case 429:
      return 'Too many requests (`rate_limit_exceeded`): over the per-key or per-account limit (`X-RateLimit-Scope`); wait for `Retry-After` seconds.';
    case 431:
      return 'Request header fields too large (`headers_too_large`): the headers are larger than the server accepts.';
    case 500:
      return 'Internal error (`internal_error`): something failed on the server; it was logged with its cause, which the answer does not reveal.';
    case 503:
      return 'Service unavailable: `shutting_down` when the request arrived while the server stops (retry it)' + (route.url === '/readyz' ? ', `not_ready` when the database does not answer or migrations are pending.' : '.');
    default:
      return 'Error.';
  }
}

/** Every error status the route can answer beyond those its own logic adds. */
export function derivedStatuses(route: RouteShape): number[] {
  const statuses = new Set<number>([431, 500, 503]);
  const { schema, auth } = route;
  const hasParams = schema.params !== undefined || route.url.includes(':');
  const takesBody = schema.body !== undefined || BODY_METHODS.has(route.method);
  if (hasParams) [400, 414, 422].forEach((s) => statuses.add(s));
  if (schema.querystring !== undefined) [400, 422].forEach((s) => statuses.add(s));
  // Any body is checked before the route sees it (NUL, lone surrogates, non-finite numbers,
  // nesting depth), so a route that expects none can still answer 422.
  if (takesBody) [400, 413, 415, 422].forEach((s) => statuses.add(s));
  // `Idempotency-Key` (decisions.md §19): 409 while the key is in use, 422 when it is reused or malformed.
  if (isIdempotentRoute(route.method, auth)) [409, 422].forEach((s) => statuses.add(s));
  switch (auth.kind) {
    case 'apiKey':
      [401, 402, 429].forEach((s) => statuses.add(s));
      if (auth.scope !== null) statuses.add(403);
      break;
    case 'toolClient':
      [401, 402, 403, 429].forEach((s) => statuses.add(s));
      break;
    case 'session':
      statuses.add(401);
      break;
    case 'admin':
      [401, 404].forEach((s) => statuses.add(s));
      break;
    case 'public':
      break;
  }
  return [...statuses];
}
