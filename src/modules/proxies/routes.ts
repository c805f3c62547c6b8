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

    app.post(
      '/api/proxy',
      {
        config: key,
        schema: {
          operationId: 'createProxy',
          description: "Adds one of the caller's own proxies (`byop`): scheme, host, port, optional credentials, and for a gateway its targeting. The password is stored encrypted and never returned here.",
          tags,
          summary: 'Add a proxy',
          body: CreateProxyBody,
          response: { 201: Proxy, ...errors(400, 422) },
        },
      },
      async (request, reply) =>
      reply.code(201).send(await m.proxies.create(contextOf(request), request.body)),
    );
    app.get(
      '/api/proxy',
      {
        config: key,
        schema: {
          operationId: 'listProxies',
          description: 'A page of the proxies the caller can use, their own and managed ones, filtered by mode or last check status.',
          tags,
          summary: 'List proxies (own and managed)',
          querystring: ProxyListQuery,
          response: { 200: ProxyPage, ...errors(422) },
        },
      },
      async (request) => {
      return m.proxies.list(contextOf(request), request.query);
    });
    app.post(
      '/api/proxy/import',
      {
        config: key,
        schema: {
          operationId: 'importProxies',
          tags,
          summary: 'Import proxies, one per line',
          description: "Creates the caller's own proxies from text, one per line (`host:port`, `host:port:user:pass` or `scheme://user:pass@host:port`). Every line is created or reported in `errors` (password masked); one bad line never stops the others. At most 10,000 lines.",
          body: ImportBody,
          response: { 200: ImportResult, ...errors(400, 413, 422) },
        },
      },
      async (request) => m.proxies.import(contextOf(request), request.body),
    );
    app.get(
      '/api/proxy/assignments',
      {
        config: key,
        schema: {
          operationId: 'listProxyAssignments',
          description: "The caller's active proxy assignments: which device goes out through which proxy, with the session settings.",
          tags,
          summary: 'Active proxy assignments',
          response: { 200: AssignmentList },
        },
      },
      async (request) =>
      m.assignments.list(contextOf(request)),
    );
    app.post(
      '/api/proxy/assignments',
      {
        config: key,
        schema: {
          operationId: 'assignProxy',
          description: "Makes a device go out through a proxy, sticky or rotating; the device's previous assignment ends.",
          tags,
          summary: 'Assign a proxy to a device (ends its previous assignment)',
          body: CreateAssignmentBody,
          response: { 201: Assignment, ...errors(400, 404, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await m.assignments.assign(contextOf(request), request.body)),
    );
    app.delete(
      '/api/proxy/assignments/:id',
      {
        config: key,
        schema: {
          operationId: 'endProxyAssignment',
          description: 'Ends an active assignment, so the device no longer uses that proxy; the answer is the remaining active assignments.',
          tags,
          summary: 'End an assignment; answers the remaining ones',
          params: IdParams,
          response: { 200: AssignmentList, ...errors(404, 422) },
        },
      },
      async (request) => m.assignments.end(contextOf(request), request.params),
    );
    app.get(
      '/api/proxy/assignments/:id/connection-info',
      {
        config: key,
        schema: {
          operationId: 'getConnectionInfo',
          tags,
          summary: 'How the device connects through its proxy',
          description: 'How the assigned device connects through its proxy: scheme, host, port, username, password and session settings, and a relay recipe. The password is `********` unless `include_secrets=true`; every reveal is written to an audit log with the key that asked.',
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
      {
        config: key,
        schema: {
          operationId: 'getDeviceProxyAssignment',
          description: "A device's active proxy assignment as a list of at most one; an empty list, not 404, when the device has none.",
          tags,
          summary: "A device's active assignment (empty list when none)",
          params: DeviceParams,
          response: { 200: AssignmentList, ...errors(404, 422) },
        },
      },
      async (request) => m.assignments.forDevice(contextOf(request), request.params),
    );
    app.get(
      '/api/proxy/usage',
      {
        config: key,
        schema: {
          operationId: 'getProxyUsage',
          description: "Bytes up and down through the caller's proxies for a period (`today`, `week`, `month` or `all`), in total and per proxy, device and group.",
          tags,
          summary: 'Bandwidth per proxy, device and group',
          querystring: UsageQuery,
          response: { 200: UsageReport, ...errors(422) },
        },
      },
      async (request) =>
      m.usage.report(contextOf(request), request.query),
    );
    app.post(
      '/api/proxy/usage',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'reportProxyUsage',
          description: 'The application reports bandwidth samples (bytes up and down per proxy and device, at most 1,000 per request), which the usage report adds up.',
          tags,
          summary: 'Report bandwidth samples (application)',
          body: UsageSamplesBody,
          response: { 200: Type.Object({ accepted: Type.Integer() }), ...errors(400, 422) },
        },
      },
      async (request) => m.usage.record(contextOf(request), request.body),
    );
    app.get(
      '/api/proxy/:id',
      {
        config: key,
        schema: {
          operationId: 'getProxy',
          description: 'One proxy the caller can use, own or managed, with its targeting and the result of its last check. The password is never shown.',
          tags,
          summary: 'Read a proxy',
          params: IdParams,
          response: { 200: Proxy, ...errors(404, 422) },
        },
      },
      async (request) =>
      m.proxies.read(contextOf(request), request.params),
    );
    app.put(
      '/api/proxy/:id',
      {
        config: key,
        schema: {
          operationId: 'updateProxy',
          description: "Changes an own proxy's label or replaces its whole targeting. A managed proxy cannot be changed (403 `managed_proxy`).",
          tags,
          summary: 'Relabel a proxy or replace its targeting (own proxies only)',
          params: IdParams,
          body: UpdateProxyBody,
          response: { 200: Proxy, ...errors(400, 403, 404, 422) },
        },
      },
      async (request) => m.proxies.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/proxy/:id',
      {
        config: key,
        schema: {
          operationId: 'deleteProxy',
          description: 'Deletes an own proxy and ends its assignments. A managed proxy cannot be deleted (403 `managed_proxy`).',
          tags,
          summary: 'Delete a proxy (own proxies only); ends its assignments',
          params: IdParams,
          response: { ...NoContent, ...errors(403, 404, 422) },
        },
      },
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
          operationId: 'validateProxy',
          tags,
          summary: 'Check a proxy for real and store the result',
          description: 'Connects through the proxy for real, measures latency and the exit address and its country, and stores the result on the proxy (`live` or `dead`). `error` is `auth_failed`, `unreachable` or `timeout` (or `targeting_mismatch` for a gateway whose exit breaks targeting). A private proxy address answers 422 `address_not_allowed`.',
          params: IdParams,
          response: { 200: ValidationResult, ...errors(404, 422) },
        },
      },
      async (request) => m.validator.validate(contextOf(request), request.params),
    );
  };
}
