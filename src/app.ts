// buildApp(deps): the Fastify instance with every route, used by `serve` and by tests.
// The caller owns the database and Redis connections and closes them after the app.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from './context.js';
import { installErrorHandling } from './http/error-handler.js';
import { ApiKeyGate } from './http/guards/api-key.js';
import { installGuards } from './http/guards/install.js';
import { installMetrics } from './http/metrics.js';
import { installOpenApi } from './http/openapi.js';
import { FixedWindowLimiter } from './http/rate-limit.js';
import { installValidation } from './http/validation.js';
import { PASSWORD_HASH_PARAMS } from './lib/crypto.js';
import { accountRoutes } from './modules/accounts/routes.js';
import { AccountService } from './modules/accounts/service.js';
import { adminRoutes } from './modules/admin/routes.js';
import { RedisAuthEpoch } from './modules/api-keys/auth-epoch.js';
import { KeyResolver } from './modules/api-keys/key-resolver.js';
import { LastUsedRecorder } from './modules/api-keys/last-used.js';
import { apiKeyRoutes } from './modules/api-keys/routes.js';
import { ApiKeyService } from './modules/api-keys/service.js';
import { billingRoutes } from './modules/billing/routes.js';
import { DeviceService } from './modules/devices/devices-service.js';
import { GroupService } from './modules/devices/groups-service.js';
import { deviceRoutes } from './modules/devices/routes.js';
import { macroRoutes } from './modules/macros/routes.js';
import { MacroService } from './modules/macros/service.js';
import { opsRoutes } from './modules/ops/routes.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Keys, tokens, passwords and credentials never reach a log line. */
const REDACT = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.key',
  '*.secret',
  '*.client_secret',
  '*.access_token',
];

export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const { config, db, clock, redis } = deps;
  const app = Fastify({
    logger: { level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' }, ...(deps.logStream ? { stream: deps.logStream } : {}) },
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: config.trustProxy,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  installValidation(app);
  installErrorHandling(app);

  const resolver = new KeyResolver(db.kysely, redis ? new RedisAuthEpoch(redis, config.redisPrefix) : null);
  const lastUsed = new LastUsedRecorder(db.kysely, (error) => app.log.error({ err: error }, 'writing last_used_at failed'));
  const limiter = (name: string, limit: number) => new FixedWindowLimiter(name, limit, clock, redis, config.redisPrefix);
  const gate = new ApiKeyGate(resolver, limiter('key', config.rateLimitPerKey), limiter('account', config.rateLimitPerAccount), lastUsed, clock);
  const accounts = new AccountService(db.kysely, clock, deps.passwordParams ?? PASSWORD_HASH_PARAMS);
  const keys = new ApiKeyService(db.kysely, db.dialect, clock, resolver, lastUsed);

  installGuards(app, { gate, db: db.kysely, clock, adminToken: config.adminToken });
  const registry = installMetrics(app, !deps.logStream);
  await installOpenApi(app, config.baseUrl);

  await app.register(opsRoutes(db, registry));
  await app.register(
    accountRoutes({
      accounts,
      db: db.kysely,
      clock,
      signInLimiter: limiter('signin', config.authRateLimitPerIp),
      secureCookies: config.baseUrl.startsWith('https:'),
    }),
  );
  await app.register(billingRoutes(db.kysely));
  await app.register(apiKeyRoutes(keys));
  await app.register(adminRoutes(db.kysely, clock, resolver));
  await app.register(macroRoutes(new MacroService(db.kysely, db.dialect, clock)));
  await app.register(deviceRoutes(new DeviceService(db.kysely, db.dialect, clock), new GroupService(db.kysely, db.dialect, clock)));

  // Graceful shutdown: a response finished after close() began tells the client to drop
  // the connection, otherwise its keep-alive socket would hold the server open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onClose', async () => {
    await lastUsed.flush();
  });
  return app;
}
