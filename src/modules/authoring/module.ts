// Builds the authoring module (decisions.md §13, docs/authoring.md): the session routes,
// the credit routes, the session service for the tool server's tools, and the worker that
// runs the agent. Without AUTHOR_LLM_URL there is no model client and no worker; the routes
// answer 503 `authoring_unavailable`.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import type { JobLog } from '../../db/jobs/worker.js';
import { createModelClient, type ModelClient } from './agent/model.js';
import { creditRoutes } from './credit-routes.js';
import { CreditLedger } from './credits.js';
import type { AuthoringPorts } from './ports.js';
import { authoringRoutes } from './routes.js';
import { AuthoringSessionService } from './service.js';
import { authoringSessionJob } from './session-job.js';
import { type AuthoringWorker, createAuthoringWorker } from './session-worker.js';

export interface AuthoringModuleDeps extends ModuleDeps, AuthoringPorts {
  log: JobLog;
  /** Tests hand in their own client; otherwise one is made for AUTHOR_LLM_URL. */
  model?: ModelClient;
  workerName?: string;
}

export interface AuthoringServices {
  sessions: AuthoringSessionService;
  credits: CreditLedger;
}

/** `workers` is the session worker when there is a model endpoint, else none. */
export function buildAuthoringModule(deps: AuthoringModuleDeps): BuiltModule<AuthoringServices> & { workers: AuthoringWorker[] } {
  const settings = deps.config.authoring;
  const credits = new CreditLedger(deps.db.kysely, deps.clock, settings.creditsPerMonth);
  const sessions = new AuthoringSessionService({ db: deps.db, clock: deps.clock, settings, credits, ports: deps });
  const model = deps.model ?? createModelClient(settings);
  const worker = model
    ? createAuthoringWorker({ db: deps.db, clock: deps.clock, settings, credits, ports: deps, model, kind: authoringSessionJob(settings), log: deps.log, name: deps.workerName })
    : null;
  return {
    routes: async (app) => {
      await app.register(authoringRoutes(sessions));
      await app.register(creditRoutes(credits));
    },
    services: { sessions, credits },
    workers: worker ? [worker] : [],
  };
}
