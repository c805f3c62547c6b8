// The web console module: the built single-page application at `/` (its source is web/).
import type { BuiltModule } from '../../http/module.js';
import { type ConsoleOptions, consoleRoutes } from './routes.js';

export { consoleRoutes } from './routes.js';

/** The console has no services or workers: only its static files. */
export function buildConsoleModule(options?: ConsoleOptions): BuiltModule<Record<string, never>> {
  return { routes: consoleRoutes(options), services: {} };
}
