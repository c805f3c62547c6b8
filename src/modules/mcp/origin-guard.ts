// The tool server's Origin rule (MCP 2025-11-25, basic/transports, "Security Warning"): a
// server MUST validate `Origin` and answer 403 when it is present and not allowed, or a web
// page could reach a server on the user's machine or network through DNS rebinding. Allowed:
// BASE_URL's own origin and MCP_ALLOWED_ORIGINS (browser clients such as the Inspector). A
// request without `Origin` (curl, scripts, SDK clients, anything not a browser) is unaffected.
// It runs first in the tool server's guard, so a refused page learns nothing of credentials
// and spends no rate limit.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../core/errors.js';
import type { RequestGuard } from '../../http/guards/install.js';

/** `value` as a browser serialises an origin (lower-case scheme and host, no default port), or null. */
function serialisedOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return ['http:', 'https:'].includes(url.protocol) && `${url.origin}` !== 'null' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The guard `next`, preceded by the Origin check against `allowed` (serialised origins). */
export function originChecked(allowed: string[], next: RequestGuard): RequestGuard {
  const origins = new Set(allowed);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const serialised = serialisedOrigin(origin);
      if (serialised === null || !origins.has(serialised)) {
        const shown = JSON.stringify(origin.slice(0, 100));
        throw new ForbiddenError(
          'origin_not_allowed',
          `The tool server does not accept requests from the origin ${shown}. A browser client must be served from BASE_URL's origin or from one the operator lists in MCP_ALLOWED_ORIGINS; clients that are not browsers send no Origin header.`,
        );
      }
    }
    return next(request, reply);
  };
}
