// The cloud run record as the API answers it (service-api.md "Cloud run"): the orchestration
// fields only. Outcome, exit code and duration are in the run history under the same
// `execution_id`.
import type { Selectable } from 'kysely';
import { ACTIVE_RUN_STATES } from '../../../core/values.js';
import type { CloudRunsTable, CloudRunState } from '../../../db/schema.js';
import { toIso } from '../../../lib/clock.js';
import { compact } from '../../../lib/compact.js';

export type CloudRunRow = Selectable<CloudRunsTable>;

/** Whether a run in this state holds its device (core's ACTIVE_RUN_STATES; the partial unique index cloud_runs_device_active_uq). */
export const isActive = (state: CloudRunState) => (ACTIVE_RUN_STATES as readonly CloudRunState[]).includes(state);

export function presentCloudRun(row: CloudRunRow) {
  return compact({
    id: row.id,
    execution_id: row.execution_id,
    device_id: row.device_id,
    macro_id: row.macro_id,
    state: row.state,
    state_message: row.state_message,
    started_at: toIso(row.started_at),
    finished_at: toIso(row.finished_at),
    bundle_sha: row.bundle_sha,
    code_ref: row.code_ref,
  });
}

export type CloudRunRecord = ReturnType<typeof presentCloudRun>;
