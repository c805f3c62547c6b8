// Liveness, readiness and metrics for the operator. None needs authentication.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Registry } from 'prom-client';
import { Type } from 'typebox';
import { type Db, ping } from '../../db/database.js';
import type { Redis } from '../../db/redis.js';
import { pendingMigrations } from '../../db/migrate.js';
import { ServiceUnavailableError } from '../../core/errors.js';
import { publicRoute } from '../../http/route-auth.js';
import { errors, StringEnum } from '../../core/schema.js';
import { PACKAGE_VERSION } from '../../http/openapi.js';
import type { VisionEngines } from '../images/index.js';

const Ready = Type.Object({
  status: Type.Literal('ready'),
  checks: Type.Object({
    database: Type.Literal('up'),
    redis: StringEnum(['up', 'down', 'not_configured'] as const, {
      description: 'Redis being down degrades (per-process rate limits, no key cache) but does not stop the service, so it does not make it unready.',
    }),
  }),
});

const EngineState = StringEnum(['idle', 'loading', 'ready', 'unavailable'] as const, {
  description: '`idle`: not loaded yet; the first request that needs it loads it (a second or two). `loading`, `ready`, or `unavailable`: its last start failed (the next request tries again).',
});

const Health = Type.Object({
  status: Type.Literal('ok'),
  engines: Type.Object(
    { template_matching: EngineState, ocr: EngineState },
    { description: "This process's vision engines (OpenCV for template matching, Tesseract for OCR). They load on first use, not at start-up, so `idle` is normal after a start." },
  ),
  warnings: Type.Optional(
    Type.Array(Type.String(), {
      description: 'What the operator should know while the process runs degraded; today: Python runs are not sandboxed (RUN_SANDBOX, docs/runs.md). Absent when there is nothing to say.',
    }),
  ),
});

export interface OpsRoutesDeps {
  db: Db;
  registry: Registry;
  redis: Redis | undefined;
  baseUrl: string;
  /** Why Python runs are not sandboxed on this machine, if they are not. */
  runSandboxWarning: () => Promise<string | undefined>;
  /** The state of the process's vision engines (the images module's). */
  engines: () => VisionEngines;
}

export function opsRoutes({ db, registry, redis, baseUrl, runSandboxWarning, engines }: OpsRoutesDeps): FastifyPluginAsyncTypebox {
  // Once every migration is applied it stays so for this process's code, so the check is
  // made until it first succeeds and then only the database is pinged.
  let migrated = false;
  return async (app) => {
    app.get(
      '/healthz',
      {
        config: publicRoute(),
        schema: {
          operationId: 'getHealth',
          description: 'Answers 200 as long as the process runs and serves HTTP; it checks nothing else, so a load balancer can use it as a liveness probe. `engines` says whether the vision engines, which load on first use, are loaded yet; `warnings` says when the process runs degraded: Python runs are not sandboxed (RUN_SANDBOX).',
          tags: ['operations'],
          summary: 'The process is up',
          response: { 200: Health },
        },
      },
      async () => {
        const warning = await runSandboxWarning();
        return { status: 'ok' as const, engines: engines(), ...(warning ? { warnings: [warning] } : {}) };
      },
    );

    app.get(
      '/readyz',
      {
        config: publicRoute(),
        schema: {
          operationId: 'getReadiness',
          description: 'Checks that the database answers and every migration is applied; 503 `not_ready` until then. Redis being down does not make the service unready (it degrades to per-process limits).',
          tags: ['operations'],
          summary: 'The database answers and every migration is applied',
          response: { 200: Ready, ...errors(503) },
        },
      },
      async (request) => {
        try {
          await ping(db);
          if (!migrated) {
            const pending = await pendingMigrations(db);
            if (pending.length > 0) throw new ServiceUnavailableError('not_ready', `Migrations not applied yet: ${pending.join(', ')}.`);
            migrated = true;
          }
        } catch (error) {
          if (error instanceof ServiceUnavailableError) throw error;
          request.log.warn({ err: error }, 'readiness check failed');
          throw new ServiceUnavailableError('not_ready', 'The database does not answer.');
        }
        const redisState: 'up' | 'down' | 'not_configured' = !redis ? 'not_configured' : redis.status === 'ready' ? 'up' : 'down';
        return { status: 'ready' as const, checks: { database: 'up' as const, redis: redisState } };
      },
    );

    app.get(
      '/api',
      {
        config: publicRoute(),
        schema: {
          operationId: 'getServiceIndex',
          description: 'Where a client starts: the service name, its version, and the addresses of the interactive documentation and of this OpenAPI document.',
          tags: ['operations'],
          summary: 'Where to start: the service version and the addresses of its description',
          response: { 200: Type.Object({ service: Type.String(), version: Type.String(), docs: Type.String(), openapi: Type.String() }) },
        },
      },
      async () => ({ service: 'automation-service', version: PACKAGE_VERSION, docs: `${baseUrl}/docs`, openapi: `${baseUrl}/openapi.json` }),
    );

    app.get(
      '/metrics',
      {
        config: publicRoute(),
        schema: {
          operationId: 'getMetrics',
          description: 'HTTP requests and their latency by method, route and status (and process metrics in a server) in the Prometheus text exposition format, for a Prometheus scraper.',
          tags: ['operations'],
          summary: 'Prometheus metrics (text exposition format)',
          response: {
            200: {
              description: 'The metrics in the Prometheus text exposition format (version 0.0.4).',
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
          },
        },
      },
      async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
    );
  };
}
