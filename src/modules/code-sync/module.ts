// Builds the code-sync module: a code macro's snapshots.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import type { ImageLibrary } from '../images/index.js';
import { codeSyncRoutes } from './routes.js';
import { CodeSyncService } from './service.js';

export interface CodeSyncServices {
  codeSync: CodeSyncService;
}

export interface CodeSyncModuleDeps extends ModuleDeps {
  /** `unknown_image` warns about ids the owner's library does not hold. */
  images: Pick<ImageLibrary, 'ownedIds'>;
}

export function buildCodeSyncModule(deps: CodeSyncModuleDeps): BuiltModule<CodeSyncServices> {
  const codeSync = new CodeSyncService(deps.db.kysely, deps.clock, deps.images);
  return { routes: codeSyncRoutes(codeSync), services: { codeSync } };
}
