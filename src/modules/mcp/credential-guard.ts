// The tool server's guard: the credential arrives as `X-API-KEY`, `Authorization: Bearer
// <key>` or `Authorization: Bearer <token>` (service-api.md, Sending a key; decisions.md §7).
// Keys and tokens both go through the REST key gate (401 → 429 → 402, the same per-key and
// per-account windows), a token standing for the key it was minted from with its own
// scopes, so a revoked key stops its tokens wherever the key itself stops. Every 401 tells
// the client where the discovery document is, so an OAuth-capable client can get a token.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../core/errors.js';
import type { Clock } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { type ApiKeyGate, KEY_PATTERN } from '../api-keys/index.js';
import { TOKEN_PATTERN, type McpTokenStore } from './oauth/token-store.js';

type Credential = { kind: 'key' | 'token'; value: string };

const NOT_A_CREDENTIAL = 'Send an API key (X-API-KEY or Authorization: Bearer svc_…) or a tool-server token (Authorization: Bearer mcpt_…).';

function presented(request: FastifyRequest): Credential {
  const header = request.headers['x-api-key'];
  const authorization = request.headers.authorization;
  if (header !== undefined && authorization !== undefined) {
    throw new UnauthorizedError('invalid_api_key', 'Send one credential: X-API-KEY or Authorization, not both.');
  }
  if (header !== undefined) {
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
      throw new UnauthorizedError('invalid_api_key', 'The X-API-KEY value is not a whole API key: it must be the entire key, including its svc_ prefix.');
    }
    return { kind: 'key', value: header };
  }
  if (authorization === undefined) throw new UnauthorizedError('missing_api_key', `The tool server needs a credential. ${NOT_A_CREDENTIAL}`);
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  if (bearer && KEY_PATTERN.test(bearer)) return { kind: 'key', value: bearer };
  if (bearer && TOKEN_PATTERN.test(bearer)) return { kind: 'token', value: bearer };
  throw new UnauthorizedError('invalid_api_key', `The Authorization header holds no API key or tool-server token. ${NOT_A_CREDENTIAL}`);
}

export function toolClientGuard(deps: { gate: ApiKeyGate; tokens: McpTokenStore; clock: Clock; resourceMetadataUrl: string }) {
  const challenge = (presentedSomething: boolean) =>
    `Bearer resource_metadata="${deps.resourceMetadataUrl}"${presentedSomething ? ', error="invalid_token"' : ''}`;

  async function admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const credential = presented(request);
    if (credential.kind === 'key') return deps.gate.admit(sha256Hex(credential.value), request, reply, null);
    const grant = await deps.tokens.resolve(sha256Hex(credential.value), deps.clock.now());
    if (!grant) throw new UnauthorizedError('invalid_api_key', 'This token is unknown or expired. Exchange the API key for a new one.');
    return deps.gate.admit(grant.keyHash, request, reply, null, grant.scopes);
  }

  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    try {
      await admit(request, reply);
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      const code = error.code as ConstructorParameters<typeof UnauthorizedError>[0];
      throw new UnauthorizedError(code, error.message, { ...error.headers, 'www-authenticate': challenge(code !== 'missing_api_key') });
    }
  };
}
