// What the tools are built from: the same services, shaped fn(ctx, input), that the REST
// routes, the scheduler and the workers call. No database handle: a tool parses, calls one
// service, and maps its answer; the rules stay in the owning module.
import type { Clock } from '../../../lib/clock.js';
import type { CodeSyncService } from '../../code-sync/index.js';
import type { DeviceService, LeaseService } from '../../devices/index.js';
import type { ImageLibrary, ScreenImages } from '../../images/index.js';
import type { MacroService } from '../../macros/index.js';
import type { RunLogService } from '../../run-logs/index.js';
import type { CloudRunService, RunValidation, TraceService } from '../../runs/index.js';
import type { ScheduleService } from '../../scheduler/index.js';

export interface ToolDeps {
  clock: Clock;
  macros: MacroService;
  codeSync: CodeSyncService;
  runLogs: RunLogService;
  devices: DeviceService;
  /** Device leases (devices module): device_lease, device_release, and the driver behind every device tool. */
  leases: LeaseService;
  images: ImageLibrary;
  screen: ScreenImages;
  /** Cloud runs (runs module), as `POST /api/hosted/devices/{id}/run` and the run routes call them. */
  runs: CloudRunService;
  /** Run traces (runs module), as `GET /api/executions/{execution_id}/trace` reads them. */
  traces: TraceService;
  /** run_validate's checks (runs module). */
  runChecks: RunValidation;
  /** The scheduler's own service, which the application routes call too. */
  schedules: Pick<ScheduleService, 'create' | 'list' | 'disable'>;
}
