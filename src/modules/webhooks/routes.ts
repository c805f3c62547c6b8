// Webhook endpoints and the delivery log (full-access keys); custom events (the application).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../http/request-context.js';
import { fullAccessKeyRoute, sessionRoute } from '../../http/route-auth.js';
import { errors, IdParams } from '../../core/schema.js';
import type { WebhookDeliveryService } from './deliveries-service.js';
import type { WebhookEndpointService } from './endpoints-service.js';
import {
  CreateEndpointBody,
  CustomEventBody,
  CustomEventResult,
  DeliveryListQuery,
  DeliveryPage,
  EndpointList,
  EndpointWithSecret,
  TestResult,
  UpdateEndpointBody,
  WebhookDelivery,
  WebhookDeliveryWithPayload,
  WebhookEndpoint,
} from './schemas.js';

export function webhookRoutes(endpoints: WebhookEndpointService, deliveries: WebhookDeliveryService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['webhooks'];
    const config = fullAccessKeyRoute();

    app.get(
      '/api/webhooks',
      {
        config,
        schema: {
          operationId: 'listWebhookEndpoints',
          description: 'Every webhook endpoint of the caller (at most 10), with its subscriptions, scope and delivery health. Signing secrets are never shown here.',
          tags,
          summary: 'List webhook endpoints',
          response: { 200: EndpointList },
        },
      },
      async (request) =>
      endpoints.list(contextOf(request)),
    );
    app.post(
      '/api/webhooks',
      {
        config,
        schema: {
          operationId: 'createWebhookEndpoint',
          description: 'Registers an HTTPS endpoint that receives signed events matching its `event_types` and scope. The signing secret is in this answer only. Private and internal addresses are refused (422); 422 `endpoint_limit_reached` past 10 endpoints.',
          tags,
          summary: 'Register a webhook endpoint; its signing secret is shown once',
          body: CreateEndpointBody,
          response: { 201: EndpointWithSecret, ...errors(400, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await endpoints.create(contextOf(request), request.body)),
    );

    // Static paths before `/:id`, for the reader; the router prefers them anyway.
    app.get(
      '/api/webhooks/deliveries',
      {
        config,
        schema: {
          operationId: 'listWebhookDeliveries',
          description: "A page of the caller's webhook deliveries, newest first, filtered by endpoint or status, with each one's attempts and last answer.",
          tags,
          summary: 'List deliveries, newest first',
          querystring: DeliveryListQuery,
          response: { 200: DeliveryPage, ...errors(422) },
        },
      },
      async (request) => deliveries.list(contextOf(request), request.query),
    );
    app.get(
      '/api/webhooks/deliveries/:id',
      {
        config,
        schema: {
          operationId: 'getWebhookDelivery',
          description: 'One delivery with the exact payload that was (or will be) sent, its attempts and the last status and response body received.',
          tags,
          summary: 'Read a delivery with the exact payload sent',
          params: IdParams,
          response: { 200: WebhookDeliveryWithPayload, ...errors(404, 422) },
        },
      },
      async (request) => deliveries.get(contextOf(request), request.params),
    );
    app.post(
      '/api/webhooks/deliveries/:id/redeliver',
      {
        config,
        schema: {
          operationId: 'redeliverWebhookDelivery',
          description: 'Puts a delivery back to `pending` with a fresh retry schedule; `attempts` keeps counting. 409 `endpoint_deleted` or `endpoint_disabled` when its endpoint cannot receive it.',
          tags,
          summary: 'Queue the same delivery again with a fresh schedule',
          params: IdParams,
          response: { 200: WebhookDelivery, ...errors(404, 409, 422) },
        },
      },
      async (request) => deliveries.redeliver(contextOf(request), request.params),
    );
    app.post(
      '/api/webhooks/events',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'emitCustomEvent',
          description: 'The application relays a custom event from a script (`custom.*`, with a JSON object of data) to every endpoint that subscribes to it; the answer says how many deliveries were queued.',
          tags,
          summary: 'Emit a custom event (application relay for scripts)',
          body: CustomEventBody,
          response: { 202: CustomEventResult, ...errors(400, 422) },
        },
      },
      async (request, reply) => reply.code(202).send(await deliveries.emitCustom(contextOf(request), request.body)),
    );

    app.get(
      '/api/webhooks/:id',
      {
        config,
        schema: {
          operationId: 'getWebhookEndpoint',
          description: 'One webhook endpoint of the caller: its URL, subscriptions, scope, state and the start of its secret.',
          tags,
          summary: 'Read a webhook endpoint',
          params: IdParams,
          response: { 200: WebhookEndpoint, ...errors(404, 422) },
        },
      },
      async (request) =>
      endpoints.get(contextOf(request), request.params),
    );
    app.put(
      '/api/webhooks/:id',
      {
        config,
        schema: {
          operationId: 'updateWebhookEndpoint',
          description: 'Changes any of the URL, description, event types, enabled flag and scope. Enabling an auto-disabled endpoint clears its failure streak.',
          tags,
          summary: 'Change a webhook endpoint; omitting scope_mode keeps the scope',
          params: IdParams,
          body: UpdateEndpointBody,
          response: { 200: WebhookEndpoint, ...errors(400, 404, 422) },
        },
      },
      async (request) => endpoints.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/webhooks/:id',
      {
        config,
        schema: {
          operationId: 'deleteWebhookEndpoint',
          description: 'Deletes a webhook endpoint; its pending deliveries end as failed and its delivery history stays readable. The answer is the remaining list.',
          tags,
          summary: 'Delete a webhook endpoint; answers the remaining list',
          params: IdParams,
          response: { 200: EndpointList, ...errors(404, 422) },
        },
      },
      async (request) => endpoints.remove(contextOf(request), request.params),
    );
    app.post(
      '/api/webhooks/:id/regenerate-secret',
      {
        config,
        schema: {
          operationId: 'regenerateWebhookSecret',
          description: 'Replaces the signing secret of an endpoint; the new secret is in this answer only and signs every attempt from now on, retries included.',
          tags,
          summary: 'Replace the signing secret; the next attempt uses the new one',
          params: IdParams,
          response: { 200: EndpointWithSecret, ...errors(404, 422) },
        },
      },
      async (request) => endpoints.regenerateSecret(contextOf(request), request.params),
    );
    app.post(
      '/api/webhooks/:id/test',
      {
        config,
        schema: {
          operationId: 'sendWebhookTest',
          description: 'Queues a `webhook.test` event for this endpoint only, whatever it subscribes to, to check that the receiver gets and verifies it.',
          tags,
          summary: 'Queue a webhook.test event for this endpoint, whatever it subscribes to',
          params: IdParams,
          response: { 200: TestResult, ...errors(404, 422) },
        },
      },
      async (request) => endpoints.sendTest(contextOf(request), request.params),
    );
  };
}
