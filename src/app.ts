// buildApp(deps): the Fastify instance with every route, used by `serve` and by tests.
// The caller owns the database and Redis connections and closes them after the app.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from './context.js';
import { answerClientError, answerFrameworkError, installErrorHandling } from './http/error-handler.js';
import { ServiceUnavailableError } from './http/errors.js';
import { ApiKeyGate } from './http/guards/api-key.js';
import { installGuards } from './http/guards/install.js';
import { installMetrics } from './http/metrics.js';
import { installOpenApi } from './http/openapi.js';
import { FixedWindowLimiter } from './http/rate-limit.js';
import { installValidation } from './http/validation.js';
import { systemResolver } from './lib/address-policy.js';
import { PASSWORD_HASH_PARAMS } from './lib/crypto.js';
import { accountRoutes } from './modules/accounts/routes.js';
import { AccountService } from './modules/accounts/service.js';
import { adminRoutes } from './modules/admin/routes.js';
import { LocalAuthEpoch, RedisAuthEpoch } from './modules/api-keys/auth-epoch.js';
import { KeyResolver } from './modules/api-keys/key-resolver.js';
import { LastUsedRecorder } from './modules/api-keys/last-used.js';
import { apiKeyRoutes } from './modules/api-keys/routes.js';
import { ApiKeyService } from './modules/api-keys/service.js';
import { billingRoutes } from './modules/billing/routes.js';
import { codeSyncRoutes } from './modules/code-sync/routes.js';
import { CodeSyncService } from './modules/code-sync/service.js';
import { DeviceService } from './modules/devices/devices-service.js';
import { GroupService } from './modules/devices/groups-service.js';
import { deviceRoutes } from './modules/devices/routes.js';
import { ExecutionReporter } from './modules/executions/report.js';
import { executionRoutes } from './modules/executions/routes.js';
import { RunHistoryService } from './modules/executions/service.js';
import { macroRoutes } from './modules/macros/routes.js';
import { MacroService } from './modules/macros/service.js';
import { opsRoutes } from './modules/ops/routes.js';
import { runLogRoutes } from './modules/run-logs/routes.js';
import { RunLogService } from './modules/run-logs/service.js';
import { profileRoutes } from './modules/profiles/routes.js';
import { WebhookDeliveryService } from './modules/webhooks/deliveries-service.js';
import { WebhookEndpointService } from './modules/webhooks/endpoints-service.js';
import { queueDeliveriesForEvents } from './modules/webhooks/fan-out.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import { adminProxyRoutes } from './modules/proxies/admin-routes.js';
import { buildProxyModule } from './modules/proxies/module.js';
import { proxyRoutes } from './modules/proxies/routes.js';
import { ProfileService } from './modules/profiles/service.js';
import { buildRunsModule } from './modules/runs/index.js';

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
    // HEAD wherever GET is (RFC 9110): Fastify answers it with the GET's headers, no body.
    exposeHeadRoutes: true,
    // The router's refusals and Node's parser errors answer in the envelope too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Our own hook below answers requests that arrive during shutdown, in the envelope.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  installValidation(app);
  installErrorHandling(app);

  // Graceful shutdown: requests already running finish; a response sent after close()
  // began tells the client to drop the connection (a keep-alive socket would otherwise hold
  // the server open), and requests arriving on such sockets get a 503 they can retry.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) {
      reply.header('connection', 'close');
      throw new ServiceUnavailableError('shutting_down', 'The server is shutting down. Retry the request.');
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  // Shared-state trouble is worth a warning, not one per request: at most one every 10 s.
  let lastWarning = 0;
  const warnSharedState = (error: unknown, what: string) => {
    if (clock.now() - lastWarning < 10_000) return;
    lastWarning = clock.now();
    app.log.warn({ err: error }, `shared state unavailable: ${what}`);
  };
  redis?.on('error', (error) => warnSharedState(error, 'Redis connection'));
  db.onConnectionError((error) => app.log.warn({ err: error }, 'a pooled database connection dropped; it will be replaced'));
  const epoch = redis ? new RedisAuthEpoch(redis, config.redisPrefix) : db.externalChangeCounter ? new LocalAuthEpoch(db.externalChangeCounter) : null;
  const resolver = new KeyResolver(db.kysely, epoch, warnSharedState);
  const lastUsed = new LastUsedRecorder(db.kysely, (error) => app.log.error({ err: error }, 'writing last_used_at failed'));
  const limiter = (name: string, limit: number) => new FixedWindowLimiter(name, limit, clock, redis, config.redisPrefix);
  const gate = new ApiKeyGate(resolver, limiter('key', config.rateLimitPerKey), limiter('account', config.rateLimitPerAccount), lastUsed, clock);
  const accounts = new AccountService(db.kysely, clock, deps.passwordParams ?? PASSWORD_HASH_PARAMS);
  const keys = new ApiKeyService(db.kysely, db.dialect, clock, resolver, lastUsed);

  installGuards(app, { gate, db: db.kysely, clock, adminToken: config.adminToken });
  const registry = installMetrics(app, !deps.logStream);
  await installOpenApi(app, config.baseUrl);

  await app.register(opsRoutes(db, registry, redis, config.baseUrl));
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
  await app.register(codeSyncRoutes(new CodeSyncService(db.kysely, clock)));
  await app.register(deviceRoutes(new DeviceService(db.kysely, db.dialect, clock), new GroupService(db.kysely, db.dialect, clock)));
  await app.register(executionRoutes(new RunHistoryService(db.kysely), new ExecutionReporter(db.kysely, clock)));
  await app.register(runLogRoutes(new RunLogService(db.kysely)));
  await app.register(profileRoutes(new ProfileService(db.kysely, db.dialect, clock)));
  queueDeliveriesForEvents(db.wakeup);
  await app.register(
    webhookRoutes(
      new WebhookEndpointService(db.kysely, db.dialect, clock, {
        secretKey: () => config.secretKey,
        addressPolicy: { allowPrivate: config.allowPrivateNetworks, resolver: deps.resolver ?? systemResolver },
      }),
      new WebhookDeliveryService(db.kysely, clock, db.wakeup),
    ),
  );
  const proxyModule = buildProxyModule({ config, db, clock, geolocator: deps.geolocator });
  await app.register(proxyRoutes(proxyModule));
  await app.register(adminProxyRoutes(proxyModule.proxies));
  const runs = buildRunsModule({ config, db, clock });
  await app.register(runs.routes);

  app.addHook('onClose', async () => {
    await runs.close();
    resolver.stop();
    await lastUsed.flush();
  });
  return app;
}
