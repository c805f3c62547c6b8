// The job catalogue: every kind of background work, by name. Each kind states its table, due
// rows, payload, lease, renewal, retry, time-out and lapse rule in one place beside its
// module (webhooks: delivery-job.ts); the module's build function returns the worker that
// runs it, and `serve`/`svc worker` start every module's workers. Device lifecycle, cloud
// runs, schedules, explorations and authoring add their kinds here.
import type { Config } from './config.js';
import type { AnyJobKind } from './db/jobs/kind.js';
import { authoringSessionJob } from './modules/authoring/index.js';
import { cloudRunJob } from './modules/runs/index.js';
import { deviceLifecycleJob } from './modules/devices/index.js';
import { scheduleFireJob, scheduleStartJob } from './modules/scheduler/index.js';
import { webhookDeliveryJob } from './modules/webhooks/index.js';
import { explorationJob } from './modules/maps/index.js';

export function jobCatalogue(config: Config) {
  return {
    'webhook.delivery': webhookDeliveryJob(config),
    'cloud.run': cloudRunJob(config),
    'device.lifecycle': deviceLifecycleJob(),
    'map.exploration': explorationJob(),
    'authoring.session': authoringSessionJob(config.authoring),
    'schedule.fire': scheduleFireJob(config),
    'schedule.start': scheduleStartJob(config),
  } satisfies Record<string, AnyJobKind>;
}

export type JobCatalogue = ReturnType<typeof jobCatalogue>;
export type JobKindName = keyof JobCatalogue;
