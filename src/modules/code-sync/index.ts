// The code-sync module's front door: snapshot upload and state, and `svc code`.
export { runCodeCommand } from './cli.js';
export { codeSyncRoutes } from './routes.js';
export { CodeSyncService } from './service.js';
