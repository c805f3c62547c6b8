// What the tools are built from: the same services the REST routes call, and the two ports
// (ports.ts) for services other modules are still building.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import type { CodeSyncService } from '../../code-sync/index.js';
import type { DeviceService } from '../../devices/index.js';
import type { ImageLibrary, ScreenImages } from '../../images/index.js';
import type { MacroService } from '../../macros/index.js';
import type { RunLogService } from '../../run-logs/index.js';
import type { McpPorts } from '../ports.js';

export interface ToolDeps extends McpPorts {
  db: Kysely<Database>;
  clock: Clock;
  macros: MacroService;
  codeSync: CodeSyncService;
  runLogs: RunLogService;
  devices: DeviceService;
  images: ImageLibrary;
  screen: ScreenImages;
}
