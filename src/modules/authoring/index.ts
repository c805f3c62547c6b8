// The authoring module's front door: the agent's sessions, AI credits and the session job.
export { buildAuthoringModule } from './module.js';
export type { AuthoringSessionService } from './service.js';
export { authoringSessionJob } from './session-job.js';
export { AuthoringSession, MessagesAnswer, ProjectFile } from './schemas.js';
export { SCAFFOLD_TEMPLATES, scaffoldProject } from './scaffold.js';
