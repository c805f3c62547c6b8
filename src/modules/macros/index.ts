// The macros module's front door.
export { buildMacrosModule } from './module.js';
export { findOwnedMacro, insertInstalledMacro, installedCopiesOf, type MacroService, ownedMacroKind, presentMacro, setInstalledVersion } from './service.js';
export { Macro } from './schemas.js';
