// Devices and groups: the application changes them (session); keys with
// `devices:control` list them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../http/request-context.js';
import { keyRoute, sessionRoute } from '../../http/route-auth.js';
import { errors, IdParams } from '../../core/schema.js';
import type { DeviceService } from './devices-service.js';
import type { GroupService } from './groups-service.js';
import {
  CreateCloudDeviceBody,
  CreateDeviceBody,
  CreateGroupBody,
  Device,
  DeviceGroup,
  DeviceListQuery,
  DevicePage,
  GroupListQuery,
  GroupPage,
  UpdateDeviceBody,
  UpdateGroupBody,
} from './schemas.js';

const NoContent = { 204: { type: 'null' } } as const;

export function deviceRoutes(devices: DeviceService, groups: GroupService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['devices'];

    app.get(
      '/api/emulator/devices',
      {
        config: keyRoute('devices:control'),
        schema: { tags, summary: 'List devices', querystring: DeviceListQuery, response: { 200: DevicePage, ...errors(422) } },
      },
      async (request) => devices.list(contextOf(request), request.query),
    );
    app.get(
      '/api/emulator/groups',
      {
        config: keyRoute('devices:control'),
        schema: { tags, summary: 'List device groups', querystring: GroupListQuery, response: { 200: GroupPage, ...errors(422) } },
      },
      async (request) => groups.list(contextOf(request), request.query),
    );

    app.post(
      '/api/emulator/groups',
      { config: sessionRoute(), schema: { tags, summary: 'Create a device group', body: CreateGroupBody, response: { 201: DeviceGroup, ...errors(400, 422) } } },
      async (request, reply) => reply.code(201).send(await groups.create(contextOf(request), request.body)),
    );
    app.put(
      '/api/emulator/groups/:id',
      {
        config: sessionRoute(),
        schema: { tags, summary: 'Rename or describe a device group', params: IdParams, body: UpdateGroupBody, response: { 200: DeviceGroup, ...errors(400, 404, 422) } },
      },
      async (request) => groups.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/emulator/groups/:id',
      {
        config: sessionRoute(),
        schema: { tags, summary: 'Delete a device group; its devices stay, with no group', params: IdParams, response: { ...NoContent, ...errors(404, 422) } },
      },
      async (request, reply) => {
        await groups.remove(contextOf(request), request.params);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/emulator/devices',
      {
        config: sessionRoute(),
        schema: { tags, summary: "Add a device on the user's own machine", body: CreateDeviceBody, response: { 201: Device, ...errors(400, 422) } },
      },
      async (request, reply) => reply.code(201).send(await devices.createLocal(contextOf(request), request.body)),
    );
    app.put(
      '/api/emulator/devices/:id',
      {
        config: sessionRoute(),
        schema: {
          tags,
          summary: 'Rename, regroup, or make a device follow a macro and settings profile',
          params: IdParams,
          body: UpdateDeviceBody,
          response: { 200: Device, ...errors(400, 404, 422) },
        },
      },
      async (request) => devices.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/emulator/devices/:id',
      {
        config: sessionRoute(),
        schema: { tags, summary: "Remove a device on the user's own machine", params: IdParams, response: { ...NoContent, ...errors(404, 422) } },
      },
      async (request, reply) => {
        await devices.removeLocal(contextOf(request), request.params);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/hosted/devices',
      {
        config: sessionRoute(),
        schema: { tags, summary: 'Create a cloud device record (hosted_state stopped)', body: CreateCloudDeviceBody, response: { 201: Device, ...errors(400, 422) } },
      },
      async (request, reply) => reply.code(201).send(await devices.createCloud(contextOf(request), request.body)),
    );
  };
}
