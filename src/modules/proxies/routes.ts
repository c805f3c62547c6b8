// Proxy routes: full-access keys for everything a user does with proxies; the application
// session reports usage. Handlers only translate HTTP to the services.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../http/request-context.js';
import { fullAccessKeyRoute, sessionRoute } from '../../http/route-auth.js';
import { errors, IdParams } from '../../core/schema.js';
import type { ProxiesServices } from './module.js';
import {
  AssignmentList,
  Assignment,
  ConnectionInfo,
  ConnectionInfoQuery,
  CreateAssignmentBody,
  CreateProxyBody,
  DeviceParams,
  ImportBody,
  ImportResult,
  Proxy,
  ProxyListQuery,
  ProxyPage,
  UpdateProxyBody,
  UsageQuery,
  UsageReport,
  UsageSamplesBody,
  ValidationResult,
} from './schemas.js';

const NoContent = { 204: { type: 'null' } } as const;

export function proxyRoutes(m: ProxiesServices): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['proxies'];
    const key = fullAccessKeyRoute();

    app.post('/api/proxy', { config: key, schema: { tags, summary: 'Add a proxy', body: CreateProxyBody, response: { 201: Proxy, ...errors(400, 422) } } }, async (request, reply) =>
      reply.code(201).send(await m.proxies.create(contextOf(request), request.body)),
    );
    app.get('/api/proxy', { config: key, schema: { tags, summary: 'List proxies (own and managed)', querystring: ProxyListQuery, response: { 200: ProxyPage, ...errors(422) } } }, async (request) => {
      return m.proxies.list(contextOf(request), request.query);
    });
    app.post(
      '/api/proxy/import',
      {
        config: key,
        schema: {
          tags,
          summary: 'Import proxies, one per line',
          description: 'Every line is created or reported in `errors` (password masked); one bad line never stops the others. At most 10,000 lines.',
          body: ImportBody,
          response: { 200: ImportResult, ...errors(400, 413, 422) },
        },
      },
      async (request) => m.proxies.import(contextOf(request), request.body),
    );
    app.get('/api/proxy/assignments', { config: key, schema: { tags, summary: 'Active proxy assignments', response: { 200: AssignmentList } } }, async (request) =>
      m.assignments.list(contextOf(request)),
    );
    app.post(
      '/api/proxy/assignments',
      { config: key, schema: { tags, summary: 'Assign a proxy to a device (ends its previous assignment)', body: CreateAssignmentBody, response: { 201: Assignment, ...errors(400, 404, 422) } } },
      async (request, reply) => reply.code(201).send(await m.assignments.assign(contextOf(request), request.body)),
    );
    app.delete(
      '/api/proxy/assignments/:id',
      { config: key, schema: { tags, summary: 'End an assignment; answers the remaining ones', params: IdParams, response: { 200: AssignmentList, ...errors(404, 422) } } },
      async (request) => m.assignments.end(contextOf(request), request.params),
    );
    app.get(
      '/api/proxy/assignments/:id/connection-info',
      {
        config: key,
        schema: {
          tags,
          summary: 'How the device connects through its proxy',
          description: 'The password is `********` unless `include_secrets=true`; every reveal is written to an audit log with the key that asked.',
          params: IdParams,
          querystring: ConnectionInfoQuery,
          response: { 200: ConnectionInfo, ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return m.connectionInfo.read(contextOf(request), { ...request.params, ...request.query });
      },
    );
    app.get(
      '/api/proxy/devices/:device_id',
      { config: key, schema: { tags, summary: "A device's active assignment (empty list when none)", params: DeviceParams, response: { 200: AssignmentList, ...errors(404, 422) } } },
      async (request) => m.assignments.forDevice(contextOf(request), request.params),
    );
    app.get('/api/proxy/usage', { config: key, schema: { tags, summary: 'Bandwidth per proxy, device and group', querystring: UsageQuery, response: { 200: UsageReport, ...errors(422) } } }, async (request) =>
      m.usage.report(contextOf(request), request.query),
    );
    app.post(
      '/api/proxy/usage',
      { config: sessionRoute(), schema: { tags, summary: 'Report bandwidth samples (application)', body: UsageSamplesBody, response: { 200: Type.Object({ accepted: Type.Integer() }), ...errors(400, 422) } } },
      async (request) => m.usage.record(contextOf(request), request.body),
    );
    app.get('/api/proxy/:id', { config: key, schema: { tags, summary: 'Read a proxy', params: IdParams, response: { 200: Proxy, ...errors(404, 422) } } }, async (request) =>
      m.proxies.read(contextOf(request), request.params),
    );
    app.put(
      '/api/proxy/:id',
      { config: key, schema: { tags, summary: 'Relabel a proxy or replace its targeting (own proxies only)', params: IdParams, body: UpdateProxyBody, response: { 200: Proxy, ...errors(400, 404, 422) } } },
      async (request) => m.proxies.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/proxy/:id',
      { config: key, schema: { tags, summary: 'Delete a proxy (own proxies only); ends its assignments', params: IdParams, response: { ...NoContent, ...errors(404, 422) } } },
      async (request, reply) => {
        await m.proxies.remove(contextOf(request), request.params);
        return reply.code(204).send(null);
      },
    );
    app.post(
      '/api/proxy/:id/validate',
      {
        config: key,
        schema: {
          tags,
          summary: 'Check a proxy for real and store the result',
          description: '`error` is `auth_failed`, `unreachable` or `timeout` (or `targeting_mismatch` for a gateway whose exit breaks targeting). A private proxy address answers 422 `address_not_allowed`.',
          params: IdParams,
          response: { 200: ValidationResult, ...errors(404, 422) },
        },
      },
      async (request) => m.validator.validate(contextOf(request), request.params),
    );
  };
}
