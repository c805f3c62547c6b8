// The authoring module's front door: the agent's sessions, AI credits and the session job.
export { buildAuthoringModule, type AuthoringModuleDeps, type AuthoringServices } from './module.js';
export type { AgentCaller, AuthoringPorts, RunView } from './ports.js';
export type { AuthoringSessionService } from './service.js';
export { authoringSessionJob, AUTHORING_JOB } from './session-job.js';
export { HOW_TO_CONFIGURE } from './errors.js';
export { AuthoringSession, MessagesAnswer, ProjectFile } from './schemas.js';
export type { ModelClient, ModelReply } from './agent/model.js';
export { SCAFFOLD_TEMPLATES, type ScaffoldTemplate, scaffoldProject } from './scaffold.js';
