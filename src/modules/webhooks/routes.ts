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

    app.get('/api/webhooks', { config, schema: { tags, summary: 'List webhook endpoints', response: { 200: EndpointList } } }, async (request) =>
      endpoints.list(contextOf(request)),
    );
    app.post(
      '/api/webhooks',
      { config, schema: { tags, summary: 'Register a webhook endpoint; its signing secret is shown once', body: CreateEndpointBody, response: { 201: EndpointWithSecret, ...errors(400, 422) } } },
      async (request, reply) => reply.code(201).send(await endpoints.create(contextOf(request), request.body)),
    );

    // Static paths before `/:id`, for the reader; the router prefers them anyway.
    app.get(
      '/api/webhooks/deliveries',
      { config, schema: { tags, summary: 'List deliveries, newest first', querystring: DeliveryListQuery, response: { 200: DeliveryPage, ...errors(422) } } },
      async (request) => deliveries.list(contextOf(request), request.query),
    );
    app.get(
      '/api/webhooks/deliveries/:id',
      { config, schema: { tags, summary: 'Read a delivery with the exact payload sent', params: IdParams, response: { 200: WebhookDeliveryWithPayload, ...errors(404, 422) } } },
      async (request) => deliveries.get(contextOf(request), request.params),
    );
    app.post(
      '/api/webhooks/deliveries/:id/redeliver',
      {
        config,
        schema: { tags, summary: 'Queue the same delivery again with a fresh schedule', params: IdParams, response: { 200: WebhookDelivery, ...errors(404, 409, 422) } },
      },
      async (request) => deliveries.redeliver(contextOf(request), request.params),
    );
    app.post(
      '/api/webhooks/events',
      {
        config: sessionRoute(),
        schema: { tags, summary: 'Emit a custom event (application relay for scripts)', body: CustomEventBody, response: { 202: CustomEventResult, ...errors(400, 422) } },
      },
      async (request, reply) => reply.code(202).send(await deliveries.emitCustom(contextOf(request), request.body)),
    );

    app.get('/api/webhooks/:id', { config, schema: { tags, summary: 'Read a webhook endpoint', params: IdParams, response: { 200: WebhookEndpoint, ...errors(404, 422) } } }, async (request) =>
      endpoints.get(contextOf(request), request.params),
    );
    app.put(
      '/api/webhooks/:id',
      {
        config,
        schema: { tags, summary: 'Change a webhook endpoint; omitting scope_mode keeps the scope', params: IdParams, body: UpdateEndpointBody, response: { 200: WebhookEndpoint, ...errors(400, 404, 422) } },
      },
      async (request) => endpoints.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/webhooks/:id',
      { config, schema: { tags, summary: 'Delete a webhook endpoint; answers the remaining list', params: IdParams, response: { 200: EndpointList, ...errors(404, 422) } } },
      async (request) => endpoints.remove(contextOf(request), request.params),
    );
    app.post(
      '/api/webhooks/:id/regenerate-secret',
      { config, schema: { tags, summary: 'Replace the signing secret; the next attempt uses the new one', params: IdParams, response: { 200: EndpointWithSecret, ...errors(404, 422) } } },
      async (request) => endpoints.regenerateSecret(contextOf(request), request.params),
    );
    app.post(
      '/api/webhooks/:id/test',
      { config, schema: { tags, summary: 'Queue a webhook.test event for this endpoint, whatever it subscribes to', params: IdParams, response: { 200: TestResult, ...errors(404, 422) } } },
      async (request) => endpoints.sendTest(contextOf(request), request.params),
    );
  };
}
