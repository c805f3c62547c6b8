// The macros module's front door.
export { buildMacrosModule, type MacrosModuleDeps, type MacrosServices } from './module.js';
export { type BlockProgramRules, findOwnedMacro, type MacroService } from './service.js';
export { Macro } from './schemas.js';
