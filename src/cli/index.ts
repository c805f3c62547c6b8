// The key holder's commands (`svc runs`, `svc devices`): clients of the service's public API
// through the SDK, never its internals (test/architecture.test.ts holds them to it).
export { runDevicesCommand } from './devices.js';
export { processOutput } from './output.js';
export { runRunsCommand } from './runs.js';
