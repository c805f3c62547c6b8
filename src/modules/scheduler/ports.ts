// What the scheduler uses of other modules: their own services, narrowed to the verbs it
// calls, handed in by the wiring as they are. The scheduler writes only its own tables: runs
// start through the same service the cloud-run route calls.
import type { DeviceLifecycle, GroupService } from '../devices/index.js';
import type { MacroService } from '../macros/index.js';
import type { CloudRunService } from '../runs/index.js';

/** What a schedule points at, checked when it is written and read again when it fires. */
export interface ScheduleTargets {
  /** `get`: 404 `not_found` for someone else's or a missing macro. */
  macros: Pick<MacroService, 'get'>;
  /** `get`: 404 `not_found`, or 404 `not_a_cloud_device` for a local device. */
  cloudDevices: Pick<DeviceLifecycle, 'get'>;
  /** `get`: 404 `not_found`, else the group with its kind; `cloudDeviceIds`: the group's cloud devices now. */
  groups: Pick<GroupService, 'get' | 'cloudDeviceIds'>;
}

/**
 * `startMany` as `POST /api/hosted/devices/{id}/run` starts one run (decisions.md §10), each
 * start answered with its run or the refusal `start` would throw (409 `device_busy`, …), for
 * the start job's batch; `states` for the failure streak.
 */
export type ScheduleRuns = Pick<CloudRunService, 'startMany' | 'states'>;
