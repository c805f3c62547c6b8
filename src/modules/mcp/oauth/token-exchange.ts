// The client-credentials exchange (decisions.md §7, RFC 6749 §4.4): the key is the client
// secret, in the body or as HTTP Basic (client_id is the key's prefix); `scope` narrows
// within the key's. Errors are RFC 6749's, not our envelope: OAuth clients (the SDK's
// ClientCredentialsProvider among them) parse `{error, error_description}`.
import { SCOPES, type Scope } from '../../../core/context.js';
import type { Clock } from '../../../lib/clock.js';
import { sha256Hex } from '../../../lib/crypto.js';
import { isUsableKey, KEY_PATTERN, type KeyResolver, keyCovers } from '../../api-keys/index.js';
import type { McpTokenStore } from './token-store.js';

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'invalid_scope' | 'unsupported_grant_type' | 'invalid_target';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    message: string,
    /** Set when the client authenticated with HTTP Basic: a 401 then says so (RFC 6749 §5.2). */
    readonly basic = false,
  ) {
    super(message);
  }
  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** client_id and secret from `Authorization: Basic`, form-decoded as RFC 6749 §2.3.1 asks. */
function basicCredentials(header: string): { id: string; secret: string } {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'The Authorization header is not HTTP Basic with client_id:client_secret.', true);
  const unform = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
}

function requestedScopes(scope: string | undefined, keyScopes: readonly Scope[]): Scope[] {
  const asked = (scope ?? '').split(' ').filter(Boolean);
  if (asked.length === 0) return keyScopes.length === 0 ? [...SCOPES] : [...keyScopes];
  const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new OAuthError('invalid_scope', `Unknown scope ${unknown[0]}; the scopes are ${SCOPES.join(', ')}.`);
  const beyond = asked.filter((s) => !keyCovers(keyScopes, s as Scope));
  if (beyond.length > 0) throw new OAuthError('invalid_scope', `The key does not have the scope ${beyond[0]}; a token can only narrow the key's scopes (${keyScopes.join(', ')}).`);
  return [...new Set(asked as Scope[])];
}

export class TokenExchange {
  constructor(
    private readonly resolver: KeyResolver,
    private readonly tokens: McpTokenStore,
    private readonly clock: Clock,
    /** `{base_url}/mcp`, the one resource tokens are for. */
    private readonly resource: string,
  ) {}

  async exchange(body: Record<string, unknown>, authorization: string | undefined): Promise<TokenAnswer> {
    const grantType = text(body.grant_type);
    if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required; this server grants client_credentials.');
    if (grantType !== 'client_credentials') throw new OAuthError('unsupported_grant_type', `This server grants only client_credentials, not ${grantType.slice(0, 60)}.`);

    const basic = authorization !== undefined && /^Basic\s/i.test(authorization);
    const fromBody = text(body.client_secret);
    if (basic && fromBody !== undefined) throw new OAuthError('invalid_request', 'Send the client secret either as HTTP Basic or in the body, not both.');
    const credentials = basic ? basicCredentials(authorization) : { id: text(body.client_id), secret: fromBody };
    const refused = () => new OAuthError('invalid_client', 'The client secret is not an active API key (unknown, revoked or expired), or client_id is not its prefix.', basic);
    if (!credentials.secret || !KEY_PATTERN.test(credentials.secret)) throw refused();

    const now = this.clock.now();
    const key = await this.resolver.resolve(sha256Hex(credentials.secret));
    if (!key || !isUsableKey(key, now)) throw refused();
    if (credentials.id && credentials.id !== key.prefix) throw refused();

    const resource = text(body.resource);
    if (resource !== undefined && resource.replace(/\/+$/, '') !== this.resource) {
      throw new OAuthError('invalid_target', `Tokens here are for ${this.resource} only.`);
    }
    const scopes = requestedScopes(text(body.scope), key.scopes);
    const { token, expiresAt } = await this.tokens.mint(key.id, scopes, now);
    return { access_token: token, token_type: 'Bearer', expires_in: Math.round((expiresAt - now) / 1000), scope: scopes.join(' ') };
  }
}
