// The macros module's front door.
export { macroRoutes } from './routes.js';
export { findOwnedMacro, MacroService } from './service.js';
