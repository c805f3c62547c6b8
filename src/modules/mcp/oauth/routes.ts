// The token exchange and the discovery documents an MCP client follows from a 401 on /mcp
// (decisions.md §7): protected-resource metadata (RFC 9728) points at this server as its
// own authorization server (RFC 8414), whose token endpoint grants client credentials.
// The authorization endpoint exists only because the SDK client requires one in the
// metadata; it answers `unsupported_response_type`. These routes answer errors in RFC
// 6749's shape `{error, error_description}`, not the service's envelope, because OAuth
// clients parse that shape (docs/mcp.md); errors before the route runs (a body that is not
// JSON or a form, one over 1 MiB) still use the envelope.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SCOPES } from '../../../core/context.js';
import { publicRoute } from '../../../http/route-auth.js';
import { OAuthError, type TokenExchange } from './token-exchange.js';

export const TOKEN_PATH = '/api/mcp/oauth/token';
export const AUTHORIZE_PATH = '/api/mcp/oauth/authorize';
export const MCP_PATH = '/mcp';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

const OAuthErrorBody = Type.Object(
  {
    error: Type.String({ description: 'RFC 6749 §5.2: invalid_request, invalid_client, invalid_scope, unsupported_grant_type, invalid_target; unsupported_response_type from the authorization endpoint' }),
    error_description: Type.String({ description: 'A sentence saying what to fix' }),
  },
  { description: 'An OAuth error (RFC 6749), not the service envelope' },
);

const TokenBody = Type.Object(
  {
    grant_type: Type.Optional(Type.String({ description: '`client_credentials`' })),
    client_id: Type.Optional(Type.String({ description: "The key's prefix (its first 12 characters); optional" })),
    client_secret: Type.Optional(Type.String({ description: 'The API key, unless sent as HTTP Basic' })),
    scope: Type.Optional(Type.String({ description: "Space-separated scopes within the key's; absent: all of the key's (all five for a full-access key)" })),
    resource: Type.Optional(Type.String({ description: 'RFC 8707: `{base_url}/mcp` if sent' })),
  },
  { additionalProperties: true },
);

const TokenAnswerBody = Type.Object({
  access_token: Type.String({ description: 'Opaque; send as `Authorization: Bearer` to /mcp' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds: 3600' }),
  scope: Type.String({ description: 'The granted scopes, space-separated' }),
});

const ResourceMetadata = Type.Object({
  resource: Type.String(),
  authorization_servers: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
  bearer_methods_supported: Type.Array(Type.String()),
  resource_name: Type.String(),
  resource_documentation: Type.String(),
});

const ServerMetadata = Type.Object({
  issuer: Type.String(),
  token_endpoint: Type.String(),
  authorization_endpoint: Type.String(),
  response_types_supported: Type.Array(Type.String()),
  grant_types_supported: Type.Array(Type.String()),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
  service_documentation: Type.String(),
});

export function oauthRoutes(exchange: TokenExchange, baseUrl: string): FastifyPluginAsyncTypebox {
  const resourceMetadata = {
    resource: `${baseUrl}${MCP_PATH}`,
    authorization_servers: [baseUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Automation service tool server',
    resource_documentation: `${baseUrl}/docs`,
  };
  const serverMetadata = {
    issuer: baseUrl,
    token_endpoint: `${baseUrl}${TOKEN_PATH}`,
    authorization_endpoint: `${baseUrl}${AUTHORIZE_PATH}`,
    response_types_supported: ['code'],
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...SCOPES],
    service_documentation: `${baseUrl}/docs`,
  };

  return async (app) => {
    const tags = ['mcp'];
    // Only here: OAuth clients send the token request as a form (RFC 6749 §4.4.2).
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    for (const [url, operationId] of [
      [RESOURCE_METADATA_PATH, 'getProtectedResourceMetadata'],
      [`${RESOURCE_METADATA_PATH}${MCP_PATH}`, 'getMcpProtectedResourceMetadata'],
    ] as const) {
      app.get(
        url,
        {
          config: publicRoute(),
          schema: {
            operationId,
            summary: url.endsWith(MCP_PATH) ? 'Tool-server resource metadata (path-suffixed form)' : 'Tool-server resource metadata',
            description: 'OAuth protected-resource metadata (RFC 9728) for the tool server at `/mcp`: where to get a token, and which scopes exist. MCP clients read it after a 401.',
            tags,
            response: { 200: ResourceMetadata },
          },
        },
        async () => resourceMetadata,
      );
    }

    app.get(
      AUTHORIZATION_SERVER_METADATA_PATH,
      {
        config: publicRoute(),
        schema: {
          operationId: 'getAuthorizationServerMetadata',
          summary: 'Authorization-server metadata',
          description: 'OAuth authorization-server metadata (RFC 8414): the token endpoint, which grants only `client_credentials` with an API key as the client secret.',
          tags,
          response: { 200: ServerMetadata },
        },
      },
      async () => serverMetadata,
    );

    app.get(
      AUTHORIZE_PATH,
      {
        config: publicRoute(),
        schema: {
          operationId: 'authorizeMcpClient',
          summary: 'Authorization endpoint (refuses)',
          description: 'Present because MCP clients require an authorization endpoint in the metadata; this server grants client credentials only, so it always answers 400 `unsupported_response_type` (RFC 6749 §4.1.2.1).',
          tags,
          response: { 400: OAuthErrorBody },
        },
      },
      async (_request, reply) =>
        reply.code(400).header('cache-control', 'no-store').send({
          error: 'unsupported_response_type',
          error_description: `This server grants only client credentials: exchange an API key at ${baseUrl}${TOKEN_PATH}.`,
        }),
    );

    app.post(
      TOKEN_PATH,
      {
        config: publicRoute(),
        schema: {
          operationId: 'createMcpToken',
          summary: 'Exchange an API key for a tool-server token',
          description:
            'Exchanges an API key for a one-hour tool-server token (OAuth client credentials). Send `grant_type=client_credentials` and the key as `client_secret` (form-encoded or JSON), or the key as HTTP Basic password with its prefix as user; `scope` narrows within the key\'s. The token stops working the moment its key is revoked or expires. Errors use the OAuth shape `{error, error_description}`: 401 `invalid_client` (with `WWW-Authenticate: Basic` when Basic was used), 400 `invalid_request`, `invalid_scope`, `unsupported_grant_type`, `invalid_target`.',
          tags,
          body: TokenBody,
          // 400 is also the envelope's when the body is not JSON or a form (the error handler's answer).
          response: { 200: TokenAnswerBody, 400: Type.Union([OAuthErrorBody, Type.Ref('Error')]), 401: OAuthErrorBody },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        try {
          return await exchange.exchange(request.body ?? {}, request.headers.authorization);
        } catch (error) {
          if (!(error instanceof OAuthError)) throw error;
          if (error.status === 401 && error.basic) reply.header('www-authenticate', 'Basic realm="mcp", charset="UTF-8"');
          return reply.code(error.status as 400 | 401).send({ error: error.error, error_description: error.message });
        }
      },
    );
  };
}
