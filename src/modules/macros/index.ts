// The macros module's front door.
export { buildMacrosModule, type MacrosModuleDeps, type MacrosServices } from './module.js';
export { type BlockProgramRules, findOwnedMacro, type InstalledCopy, insertInstalledMacro, type MacroService, presentMacro, setInstalledVersion } from './service.js';
export { Macro } from './schemas.js';
