// Builds the macros module.
import type { BuiltModule, ModuleDeps } from '../../http/module.js';
import { macroRoutes } from './routes.js';
import { MacroService } from './service.js';

export interface MacrosServices {
  macros: MacroService;
}

export function buildMacrosModule(deps: ModuleDeps): BuiltModule<MacrosServices> {
  const macros = new MacroService(deps.db.kysely, deps.db.dialect, deps.clock);
  return { routes: macroRoutes(macros), services: { macros } };
}
