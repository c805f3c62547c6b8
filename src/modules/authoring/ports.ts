// What the authoring agent uses of other modules: their own services, narrowed to the verbs it
// calls and handed in by the wiring as they are (decisions 0027): macros and their code (code
// sync), the session's device (the lifecycle's check, a lease and its driver), cloud runs
// through the runs module's front door, their history, logs and traces, and the menu maps.
import type { ServiceContext } from '../../core/context.js';
import type { CodeSyncService } from '../code-sync/index.js';
import type { DeviceLifecycle, DeviceVision, LeaseService } from '../devices/index.js';
import type { RunHistoryService } from '../executions/index.js';
import type { MacroService } from '../macros/index.js';
import type { MapsService } from '../maps/index.js';
import type { RunLogService } from '../run-logs/index.js';
import type { CloudRunService, TraceService } from '../runs/index.js';

export type AgentCaller = ServiceContext;

export interface AuthoringPorts {
  /** `get` for a macro's kind (404 for an unknown or someone else's macro); `create` for a session started without one. */
  macros: Pick<MacroService, 'get' | 'create'>;
  /** The macro's current code as files, and installing the session's files as its snapshot (code sync's upload). */
  codeSync: Pick<CodeSyncService, 'currentFiles' | 'installFiles'>;
  /** `get`: 404, or 404 `not_a_cloud_device`, unless the caller's cloud device. */
  cloudDevices: Pick<DeviceLifecycle, 'get'>;
  /** The session's device: leased (started and waited for), resolved to its driver, released. */
  leases: Pick<LeaseService, 'lease' | 'release' | 'resolve'>;
  /** Template matching and OCR for the device actions (the images module's ScreenImages). */
  vision: DeviceVision;
  /** The session's runs, on the device its lease holds (the lease is no obstacle to them). */
  runs: Pick<CloudRunService, 'start' | 'get' | 'stop'>;
  /** An ended run's outcome in the run history. */
  history: Pick<RunHistoryService, 'findByExecutionId'>;
  /** A run's last log lines. */
  runLogs: Pick<RunLogService, 'read'>;
  /** A failed run's failed step and its screen (decisions.md §17). */
  traces: Pick<TraceService, 'forTool'>;
  /** The account's menu maps: one package's (`find`), and which packages have one (`list`). */
  maps: Pick<MapsService, 'find' | 'list'>;
}
