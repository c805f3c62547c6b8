// buildApp(deps): the Fastify instance with every module's routes, used by `serve` and by
// tests. The caller owns the database and Redis connections and closes them after the app.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { allModules, buildModules, type Modules } from './build-modules.js';
import type { Deps } from './context.js';
import { ServiceUnavailableError } from './core/errors.js';
import { installBodyDrain } from './http/drain-unread-body.js';
import { answerClientError, answerFrameworkError, installErrorHandling } from './http/error-handler.js';
import { installGuards } from './http/guards/install.js';
import { installMetrics } from './http/metrics.js';
import { installOpenApi } from './http/openapi.js';
import { buildSerializerOnFirstUse } from './http/serialization.js';
import { installValidation } from './http/validation.js';
import { presentsSession, sessionGuard } from './modules/accounts/index.js';
import { adminGuard } from './modules/admin/index.js';
import { buildConsoleModule } from './modules/console/index.js';
import { Selector } from './modules/devices/index.js';
import { buildOpsModule } from './modules/ops/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every module as built for this app: `serve` starts their workers. */
    modules: Modules;
  }
}

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
    schemaController: { compilersFactory: { buildSerializer: buildSerializerOnFirstUse } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installValidation(app);
  installErrorHandling(app);
  // Before the shutdown hooks: an answer sent while the app closes keeps `Connection: close`.
  installBodyDrain(app);

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
  const modules = buildModules({ ...deps, log: app.log, warnSharedState });
  const { gate } = modules.apiKeys.services;

  installGuards(app, {
    keyGate: gate,
    session: sessionGuard(db.kysely, clock),
    presentsSession,
    admin: adminGuard(config.adminToken),
    toolClient: modules.mcp.services.guard,
    idempotency: modules.idempotency.services.requests,
  });
  const registry = installMetrics(app, !deps.logStream);
  // The §16 selector is in some forty places of the document: it is written once, under components.
  await installOpenApi(app, config.baseUrl, { Selector });

  // Every module the same way: its routes, in one plugin. Their workers are started by
  // `serve` (svc.ts), not here, so tests and `svc openapi` run none.
  // The console's catch-all GET comes last, so every API route is matched first.
  for (const module of [buildOpsModule({ config, db, clock, registry, redis, screen: modules.images.services.screen }), ...allModules(modules), buildConsoleModule()]) {
    await app.register(module.routes);
  }

  app.addHook('onClose', async () => {
    for (const module of allModules(modules)) await module.close?.();
  });
  app.decorate('modules', modules);
  return app;
}
