// The one shape of a module (docs/decisions/0005-module-shape.md): `build<Name>Module(deps)`
// in modules/<name>/module.ts returns its routes, its services and its workers, and app.ts
// wires every module the same way.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { BackgroundWorker } from '../core/worker.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';

/** What every module may be built from; a module adds what only it needs. */
export interface ModuleDeps {
  config: Config;
  db: Db;
  clock: Clock;
}

export interface BuiltModule<Services extends object> {
  /** Every route of the module, as one plugin. */
  routes: FastifyPluginAsyncTypebox;
  /** What other modules, the tool server and workers call, each shaped `fn(ctx, input)`. */
  services: Services;
  /** Its background work, started by `serve` (unless RUN_WORKERS=false) and by `svc worker`. */
  workers?: BackgroundWorker[];
  /** Releases what the module holds (timers, writes not yet made); called when the app closes. */
  close?: () => Promise<void>;
}
