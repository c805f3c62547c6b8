// The services the device and run tools need from other modules (device leases in devices,
// cloud runs in runs). The tool server depends only on these two small interfaces;
// build-modules.ts adapts the real services to them (leasesPort, cloudRunsPort).
import type { ServiceContext } from '../../core/context.js';
import type { DeviceDriver } from '../devices/index.js';
import type { CloudRunRecord } from '../runs/index.js';
import type { ScheduleService } from '../scheduler/index.js';

export interface Lease {
  lease_id: string;
  device_id: number;
  /** ISO 8601. */
  expires_at: string;
}

export interface DeviceLeases {
  /**
   * Lends the caller's cloud device for `minutes` (1 to 120), starting a stopped device and
   * waiting until it is ready; leasing again before expiry extends the same lease.
   * Someone else's device: NotFoundError; a device with an active run or another lease:
   * ConflictError `device_busy`.
   */
  lease(ctx: ServiceContext, input: { deviceId: number; minutes: number }): Promise<Lease>;
  /** Ends the caller's lease; someone else's or an ended lease: NotFoundError. */
  release(ctx: ServiceContext, leaseId: string): Promise<void>;
  /** The driver of the caller's live lease; someone else's or an ended lease: NotFoundError. */
  resolve(ctx: ServiceContext, leaseId: string): Promise<{ deviceId: number; driver: DeviceDriver }>;
}


export interface CloudRuns {
  /** As `POST /api/devices/{id}/run`: the checks of decisions.md §10, in order. */
  start(ctx: ServiceContext, input: { deviceId: number; macroId: number; args?: Record<string, unknown> }): Promise<CloudRunRecord>;
  /** `run` is the cloud run's numeric id or its execution_id (`cr_…`), as on the REST routes. */
  get(ctx: ServiceContext, run: number | string): Promise<CloudRunRecord>;
  stop(ctx: ServiceContext, run: number | string): Promise<CloudRunRecord>;
}

export interface McpPorts {
  leases: DeviceLeases;
  runs: CloudRuns;
  /** The scheduler's own service, which the application routes call too. */
  schedules: Pick<ScheduleService, 'create' | 'list' | 'disable'>;
}
