// The code-sync module's front door: snapshot upload and state, and `svc code`.
export { runCodeCommand } from './cli.js';
export { buildCodeSyncModule } from './module.js';
export type { CodeSyncService } from './service.js';
export { SNAPSHOT_LIMITS } from './limits.js';
export { readZipFiles } from './zip-reader.js';
export { CodeState, SnapshotAnswer } from './schemas.js';
export { chooseEntry } from './entry.js';
export { SnapshotRefusedError } from './errors.js';
export { adoptSnapshot, currentSnapshotOf, currentSnapshotZip, dropUnusedBlobs, imageIdsOfSnapshot, removeMacroCode, visitSnapshotFiles } from './shared-code.js';
