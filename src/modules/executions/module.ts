// Builds the executions module: run history and execution reports.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import type { EmitEvent } from '../events/index.js';
import { ExecutionReporter } from './report.js';
import { executionRoutes } from './routes.js';
import { RunHistoryService } from './service.js';

export interface ExecutionsServices {
  history: RunHistoryService;
  reporter: ExecutionReporter;
}

export interface ExecutionsModuleDeps extends ModuleDeps {
  /** Records a reported run's macro.* events. */
  emit: EmitEvent;
}

export function buildExecutionsModule(deps: ExecutionsModuleDeps): BuiltModule<ExecutionsServices> {
  const history = new RunHistoryService(deps.db.kysely);
  const reporter = new ExecutionReporter(deps.db.kysely, deps.clock, deps.emit);
  return { routes: executionRoutes(history, reporter), services: { history, reporter } };
}
