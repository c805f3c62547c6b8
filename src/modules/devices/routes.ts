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
        schema: {
          operationId: 'listDevices',
          description: "A page of the caller's devices, local and cloud, filtered by macro, group or a name substring and sorted by `sort` (`name` by default).",
          tags,
          summary: 'List devices',
          querystring: DeviceListQuery,
          response: { 200: DevicePage, ...errors(422) },
        },
      },
      async (request) => devices.list(contextOf(request), request.query),
    );
    app.get(
      '/api/emulator/groups',
      {
        config: keyRoute('devices:control'),
        schema: {
          operationId: 'listDeviceGroups',
          description: "A page of the caller's device groups with their device counts, filtered by name or description substrings and sorted by `sort` (`name` by default).",
          tags,
          summary: 'List device groups',
          querystring: GroupListQuery,
          response: { 200: GroupPage, ...errors(422) },
        },
      },
      async (request) => groups.list(contextOf(request), request.query),
    );

    app.post(
      '/api/emulator/groups',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'createDeviceGroup',
          description: "Creates a device group of one kind: `byod` for devices on the user's own machine or `cloud` for cloud devices. A device joins only a group of its kind.",
          tags,
          summary: 'Create a device group',
          body: CreateGroupBody,
          response: { 201: DeviceGroup, ...errors(400, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await groups.create(contextOf(request), request.body)),
    );
    app.put(
      '/api/emulator/groups/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'updateDeviceGroup',
          description: 'Renames a device group or changes its description (null clears it). Its kind cannot change.',
          tags,
          summary: 'Rename or describe a device group',
          params: IdParams,
          body: UpdateGroupBody,
          response: { 200: DeviceGroup, ...errors(400, 404, 422) },
        },
      },
      async (request) => groups.update(contextOf(request), { ...request.params, ...request.body }),
    );
    app.delete(
      '/api/emulator/groups/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'deleteDeviceGroup',
          description: 'Deletes a device group. Its devices are kept and belong to no group afterwards.',
          tags,
          summary: 'Delete a device group; its devices stay, with no group',
          params: IdParams,
          response: { ...NoContent, ...errors(404, 422) },
        },
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
        schema: {
          operationId: 'createLocalDevice',
          description: "Records a device on the user's own machine by name and port, optionally in a `byod` group.",
          tags,
          summary: "Add a device on the user's own machine",
          body: CreateDeviceBody,
          response: { 201: Device, ...errors(400, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await devices.createLocal(contextOf(request), request.body)),
    );
    app.put(
      '/api/emulator/devices/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'updateDevice',
          description: "Renames a device, moves it to another group of its kind, or makes it follow a macro and one of that macro's settings profiles (the macro's `Default` when no profile is given). Null clears a reference.",
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
        schema: {
          operationId: 'deleteLocalDevice',
          description: "Removes a device on the user's own machine. A cloud device answers 404 `not_a_local_device`.",
          tags,
          summary: "Remove a device on the user's own machine",
          params: IdParams,
          response: { ...NoContent, ...errors(404, 422) },
        },
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
        schema: {
          operationId: 'createCloudDevice',
          description: 'Creates the record of a cloud device, optionally in a `cloud` group. It starts in `hosted_state` `stopped`.',
          tags,
          summary: 'Create a cloud device record (hosted_state stopped)',
          body: CreateCloudDeviceBody,
          response: { 201: Device, ...errors(400, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await devices.createCloud(contextOf(request), request.body)),
    );
  };
}
