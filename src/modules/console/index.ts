// The web console module: the built single-page application at `/` (its source is web/).
export { consoleRoutes, DEFAULT_CONSOLE_ROOT, type ConsoleOptions } from './routes.js';
