// What the authoring agent needs of other modules, handed in by the wiring
// (src/authoring-ports.ts) so this module imports no other module's inner files: macros and
// their code (code sync), the session's device (a lease and its driver), cloud runs through
// the runs module's front door, their history and logs, and the menu maps when there are.
import type { ServiceContext } from '../../core/context.js';
import type { DeviceDriver, DeviceVision } from '../devices/index.js';
import type { ProjectFileValue } from './schemas.js';

export interface FailedStep {
  step: { seq: number; action: string; args: object; outcome: string; error?: { code: string; message: string }; element?: unknown; interrupts: string[]; block_path?: string };
  frame: { jpeg: Buffer; which: 'before' | 'after' } | null;
}

export type AgentCaller = Pick<ServiceContext, 'userId' | 'keyId' | 'sessionId' | 'scopes' | 'requestId' | 'clientAddress'>;

export interface RunView {
  id: number;
  execution_id: string;
  state: string;
  state_message?: string | null;
}

export interface AuthoringPorts {
  /** The caller's macro's kind; 404 for an unknown or someone else's macro. */
  macroKind(ctx: AgentCaller, macroId: number): Promise<'python' | 'block'>;
  /** A new code macro for a session started without one; answers its id. */
  createCodeMacro(ctx: AgentCaller, name: string, description: string): Promise<number>;
  /** The macro's current code as files; empty when it never synced. */
  currentFiles(ctx: AgentCaller, macroId: number): Promise<ProjectFileValue[]>;
  /** Zips the files, hashes them and installs them as the macro's current snapshot (code sync's upload). */
  installFiles(ctx: AgentCaller, macroId: number, files: ProjectFileValue[], entryPath?: string): Promise<{ entry_path: string }>;
  /** 404, or 404 `not_a_cloud_device`, unless the caller's cloud device. */
  checkCloudDevice(ctx: AgentCaller, deviceId: number): Promise<void>;
  /** Leases the device (starting it and waiting until ready); answers the lease id. */
  leaseDevice(ctx: AgentCaller, deviceId: number, minutes: number, signal: AbortSignal): Promise<string>;
  /** Ends the lease; a lease already gone is fine. */
  releaseDevice(ctx: AgentCaller, leaseId: string): Promise<void>;
  /** Template matching and OCR for the device actions (the images module's ScreenImages). */
  vision: DeviceVision;
  /** The leased device's driver; 404 when the lease ended. */
  driver(ctx: AgentCaller, leaseId: string): Promise<DeviceDriver>;
  /** Starts a cloud run of the macro on the device the session's lease holds (the lease is no obstacle to it). */
  startRun(ctx: AgentCaller, input: { deviceId: number; macroId: number; args?: Record<string, unknown>; underLease: string }): Promise<RunView>;
  getRun(ctx: AgentCaller, runId: number): Promise<RunView>;
  stopRun(ctx: AgentCaller, runId: number): Promise<void>;
  /** The run history's outcome of an ended run. */
  runOutcome(ctx: AgentCaller, executionId: string): Promise<{ exit_code: number | null; error_message: string | null }>;
  /** The run's last `lines` log lines. */
  logTail(ctx: AgentCaller, executionId: string, lines: number): Promise<string[]>;
  /**
   * A failed run's failed step from its trace (decisions.md §17), with the screen before it
   * (else after it) as JPEG; null when the run has no trace or no step failed.
   */
  failedStep(ctx: AgentCaller, executionId: string): Promise<FailedStep | null>;
  /** The account's menu map of a package, or null when none was learned. */
  mapOf(ctx: AgentCaller, pkg: string): Promise<unknown>;
  /** Packages the account has menu maps of, for the system prompt. */
  mappedPackages(ctx: AgentCaller): Promise<string[]>;
}
