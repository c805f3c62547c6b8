// The cloud-run routes (service-api.md "Cloud runs", scope `macros:run`): start a run on a
// cloud device, read it, stop it. Thin: parse, call the service, answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id } from '../../../core/schema.js';
import { contextOf } from '../../../http/request-context.js';
import { keyRoute } from '../../../http/route-auth.js';
import { Type } from 'typebox';
import type { CloudRunService } from './service.js';
import { CloudRun, CloudRunParams, StartRunBody } from './schemas.js';

const DeviceParams = Type.Object({ id: Id('One of your cloud devices') });

const BY_EXECUTION_ID =
  "`{id}` is the run's numeric id or, as an extension of the contract, its `execution_id` (`cr_` + 24 lowercase hex): a run history record names its cloud run only by that, so a client holding the record can read or stop the run without another lookup. Any other form answers 422 `validation_failed`; an execution_id that is not one of your cloud runs (someone else's, or none) answers 404.";

export function cloudRunRoutes(runs: CloudRunService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['cloud-runs'];
    app.post(
      '/api/hosted/devices/:id/run',
      {
        config: keyRoute('macros:run'),
        schema: {
          operationId: 'startCloudRun',
          description:
            'Starts a macro on one of your cloud devices and answers the run in `launching`. Checks, in order: the device (404; a local device 404 `not_a_cloud_device`), the macro (404), that it can run (409 `macro_not_runnable`), that the device has no active run or lease (409 `device_busy`), that runs are on and a device host can take the run (503 `runs_unavailable`, with `Retry-After`: runs switched off, or, for a device not already on a host, no free slot such as every `adb` serial in use). A stopped device is started first.',
          tags,
          summary: 'Start a cloud run',
          params: DeviceParams,
          body: StartRunBody,
          response: { 201: CloudRun, ...errors(404, 409, 422, 503) },
        },
      },
      async (request, reply) => reply.code(201).send(await runs.start(contextOf(request), { ...request.body, device_id: request.params.id })),
    );
    app.get(
      '/api/hosted/runs/:id',
      {
        config: keyRoute('macros:run'),
        schema: {
          operationId: 'getCloudRun',
          description: `One of your cloud runs. Its outcome (exit code, error, duration) is in the run history under the same \`execution_id\`; someone else's run answers 404. ${BY_EXECUTION_ID}`,
          tags,
          summary: 'Read a cloud run',
          params: CloudRunParams,
          response: { 200: CloudRun, ...errors(404, 422) },
        },
      },
      async (request) => runs.get(contextOf(request), request.params),
    );
    app.post(
      '/api/hosted/runs/:id/stop',
      {
        config: keyRoute('macros:run'),
        schema: {
          operationId: 'stopCloudRun',
          description:
            `Stops a cloud run: 202 with the run in \`stopping\` (SIGTERM to its process group, SIGKILL 5 s later; it then ends \`stopped\`), or 200 with the run as it is when it has already ended. ${BY_EXECUTION_ID}`,
          tags,
          summary: 'Stop a cloud run',
          params: CloudRunParams,
          response: { 200: CloudRun, 202: CloudRun, ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        const { status, run } = await runs.stop(contextOf(request), request.params);
        return reply.code(status).send(run);
      },
    );
  };
}
