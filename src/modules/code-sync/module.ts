// Builds the code-sync module: a code macro's snapshots.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { codeSyncRoutes } from './routes.js';
import { CodeSyncService } from './service.js';

export interface CodeSyncServices {
  codeSync: CodeSyncService;
}

export function buildCodeSyncModule(deps: ModuleDeps): BuiltModule<CodeSyncServices> {
  const codeSync = new CodeSyncService(deps.db.kysely, deps.clock);
  return { routes: codeSyncRoutes(codeSync), services: { codeSync } };
}
