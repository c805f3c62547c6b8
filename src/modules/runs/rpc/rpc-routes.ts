// The device RPC's routes, `POST /api/runs/devices/{device_id}/{function}`: one per SDK
// function, each with its own body and answer schema. They are `public` in the route
// catalogue because a run token, not a key or a session, opens them; the token is checked
// first of all (before the body is even read), in this plugin's own onRequest hook.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { publicRoute } from '../../../http/route-auth.js';
import { errors } from '../../../core/schema.js';
import type { DeviceRpc } from './device-rpc.js';
import { actionAnswer, actionBody, RPC_ACTIONS } from './actions.js';
import { RPC_FUNCTION_NAMES, RPC_FUNCTIONS, type RunCaller } from './functions.js';
import { DeviceParams } from './rpc-schemas.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The run whose token opened a device-RPC route. */
    runCaller?: RunCaller;
  }
}

const PNG = { description: 'The screen as PNG', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } };

export function deviceRpcRoutes(rpc: DeviceRpc): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', async (request) => {
      const deviceId = Number((request.params as { device_id?: string }).device_id);
      // A device id that is not a number names no device the token could belong to.
      request.runCaller = await rpc.authenticate(request.headers.authorization, Number.isSafeInteger(deviceId) ? deviceId : -1);
    });
    for (const name of RPC_FUNCTION_NAMES) {
      const fn = RPC_FUNCTIONS[name];
      app.post(
        `/api/runs/devices/:device_id/${name}`,
        {
          config: publicRoute(),
          schema: {
            operationId: `runDevice${name.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('')}`,
            tags: ['runs'],
            summary: `svc_device.${name}: ${fn.summary}`,
            description: "Called by the Python SDK `svc_device` inside a cloud run, with `Authorization: Bearer <SVC_RUN_TOKEN>`. The token opens only its run's device, and only while the run is `launching` or `running`.",
            params: DeviceParams,
            ...(fn.body ? { body: fn.body } : {}),
            response: { 200: fn.answer === 'png' ? PNG : fn.answer, ...errors(401, 403, 404, 409, 422, 501, 502) },
          },
        },
        async (request, reply) => {
          const answer = await rpc.call(request.runCaller as RunCaller, { function: name, body: request.body });
          return fn.answer === 'png' ? reply.type('image/png').send(answer) : answer;
        },
      );
    }
    for (const entry of RPC_ACTIONS) {
      app.post(
        `/api/runs/devices/:device_id/actions/${entry.name}`,
        {
          config: publicRoute(),
          schema: {
            operationId: `runDeviceAction${entry.name.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('')}`,
            tags: ['runs'],
            summary: `Device action ${entry.name} (svc_device): ${entry.title}`,
            description: `${entry.description}\n\nThe device-action catalogue over the run's device RPC (decisions.md §16), called by the Python SDK \`svc_device\` with \`Authorization: Bearer <SVC_RUN_TOKEN>\`. \`interrupts\` are the run's registered interrupts; \`log\` in the answer holds the lines the action wrote to the run's log.`,
            params: DeviceParams,
            body: actionBody(entry),
            response: { 200: actionAnswer(entry), ...errors(401, 403, 404, 409, 422, 501, 502) },
          },
        },
        async (request) => rpc.action(request.runCaller as RunCaller, entry, request.body as Record<string, unknown>),
      );
    }
  };
}
