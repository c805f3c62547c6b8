// Builds the macros module.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { macroRoutes } from './routes.js';
import { type BlockProgramRules, MacroService, type RemoveMacroCode } from './service.js';

export interface MacrosServices {
  macros: MacroService;
}

export interface MacrosModuleDeps extends ModuleDeps {
  /** How block programs are checked on create and update (the runs module's rules). */
  blockPrograms: BlockProgramRules;
  /** Deletes a macro's code snapshots (the code-sync module's tables) in the delete's transaction. */
  removeCode?: RemoveMacroCode;
}

export function buildMacrosModule(deps: MacrosModuleDeps): BuiltModule<MacrosServices> {
  const macros = new MacroService(deps.db.kysely, deps.db.dialect, deps.clock, deps.blockPrograms, deps.removeCode);
  return { routes: macroRoutes(macros), services: { macros } };
}
