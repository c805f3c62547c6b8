// The cloud-run refusals of decisions.md §1, each with its status and code.
import { AppError, NotACloudDeviceError } from '../../../core/errors.js';

/** 404 `not_a_cloud_device` on a cloud-run route, saying what to do instead. */
export class NotACloudDeviceForRunError extends NotACloudDeviceError {
  constructor() {
    super('This device is a local device, not a cloud device: cloud runs run only on cloud devices. Run it from the application on the phone instead.');
  }
}

/** How long a refused caller should wait before trying again. */
const RETRY_AFTER_SECONDS = 60;

/** 503 `runs_unavailable`, with `Retry-After`: runs are switched off, or no device host can take the run. */
export class RunsUnavailableError extends AppError {
  constructor(message: string) {
    super(503, 'runs_unavailable', message, {}, { 'retry-after': String(RETRY_AFTER_SECONDS) });
  }
}
