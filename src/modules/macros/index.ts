// The macros module's front door.
export { buildMacrosModule, type MacrosServices } from './module.js';
export { findOwnedMacro, type MacroService } from './service.js';
