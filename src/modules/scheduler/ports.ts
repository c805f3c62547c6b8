// What the scheduler needs from other modules, as two small interfaces; build-modules.ts
// adapts the devices, macros and runs front doors to them. The scheduler writes only its own
// tables: runs start through the same function the cloud-run route calls.
import type { ServiceContext } from '../../core/context.js';

export interface ScheduleTargets {
  /** 404 `not_found` for someone else's or a missing macro. */
  checkMacro(ctx: ServiceContext, macroId: number): Promise<{ name: string }>;
  /** 404 `not_found`, or 404 `not_a_cloud_device` for a local device. */
  checkDevice(ctx: ServiceContext, deviceId: number): Promise<void>;
  /** 404 `not_found`; answers the group's kind (`cloud` or `byod`). */
  groupKind(ctx: ServiceContext, groupId: number): Promise<string>;
  /** The group's cloud devices at this moment. */
  groupDevices(ctx: ServiceContext, groupId: number): Promise<number[]>;
}

export interface StartedRun {
  id: number;
  execution_id: string;
}

export interface ScheduleRuns {
  /** As `POST /api/devices/{id}/run` (decisions.md §10): its refusals are AppErrors with their codes (409 `device_busy`, …). */
  start(ctx: ServiceContext, input: { deviceId: number; macroId: number; args?: Record<string, unknown> }): Promise<StartedRun>;
  /**
   * Many starts at once (the start job's batch), each answered as `start` would answer it: its
   * run, or the error `start` would throw.
   */
  startMany(starts: { ctx: ServiceContext; input: { device_id: number; macro_id: number; args?: Record<string, unknown> } }[]): Promise<({ run: StartedRun } | { error: unknown })[]>;
  /** The states (`launching` … `failed`) of those of the owner's runs that exist, by run id. */
  states(ctx: ServiceContext, runIds: number[]): Promise<Map<number, string>>;
}
