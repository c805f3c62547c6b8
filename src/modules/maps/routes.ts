// The menu-map routes (app-api.md "Menu maps"; session only: tool clients read maps with
// `map_get`). Thin: parse, call the service, answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, IdParams } from '../../core/schema.js';
import { contextOf } from '../../http/request-context.js';
import { sessionRoute } from '../../http/route-auth.js';
import type { ExplorationService } from './explorations-service.js';
import type { MapsService } from './maps-service.js';
import { Exploration, MapList, MenuMap, PackageParams, StartExplorationBody } from './schemas.js';

export function mapRoutes(explorations: ExplorationService, maps: MapsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['maps'];
    app.post(
      '/api/maps/explorations',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'startExploration',
          summary: 'Explore an app to learn its menu map',
          description:
            'Queues an exploration of the app on one of your cloud devices and answers it in `queued` (202). The device is held for it until it ends: runs, leases and other explorations answer 409 `device_busy` meanwhile, and it answers 409 `device_busy` itself when the device has an active run, a live lease or another exploration. A stopped device is started first. The explorer starts the app fresh, taps every control of every screen except those on the do-not-touch list, and ends `done` when no screen has untried controls or a limit is reached; the learned map replaces the app\'s previous one. Someone else\'s device answers 404, a local device 404 `not_a_cloud_device`.',
          tags,
          body: StartExplorationBody,
          response: { 202: Exploration, ...errors(404, 409, 422) },
        },
      },
      async (request, reply) => reply.code(202).send(await explorations.start(contextOf(request), request.body)),
    );
    app.get(
      '/api/maps/explorations/:id',
      {
        config: sessionRoute(),
        schema: { operationId: 'getExploration', summary: 'Read an exploration', description: 'One of your explorations, with its progress (screens, transitions and actions so far) or how it ended.', tags, params: IdParams, response: { 200: Exploration, ...errors(404, 422) } },
      },
      async (request) => explorations.get(contextOf(request), request.params.id),
    );
    app.post(
      '/api/maps/explorations/:id/stop',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'stopExploration',
          summary: 'Stop an exploration',
          description:
            'Ends the exploration `stopped` at once. What a running exploration learned so far becomes the app\'s map within a moment (its worker sees the stop at its next action), and the device is freed then. An exploration that already ended is answered as it is.',
          tags,
          params: IdParams,
          response: { 200: Exploration, ...errors(404, 422) },
        },
      },
      async (request) => explorations.stop(contextOf(request), request.params.id),
    );
    app.get(
      '/api/maps',
      {
        config: sessionRoute(),
        schema: { operationId: 'listMaps', summary: 'List learned menu maps', description: 'One entry per app with a learned map, by package name, with its screen and transition counts.', tags, response: { 200: MapList } },
      },
      async (request) => maps.list(contextOf(request)),
    );
    app.get(
      '/api/maps/:package',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getMap',
          summary: 'Read the menu map of an app',
          description: "The app's learned map: its screens (identified by structure, with the path that reaches each from the app's start) and the transitions between them. 404 when the app has none.",
          tags,
          params: PackageParams,
          response: { 200: MenuMap, ...errors(404, 422) },
        },
      },
      async (request) => maps.get(contextOf(request), request.params.package),
    );
    app.delete(
      '/api/maps/:package',
      {
        config: sessionRoute(),
        schema: { operationId: 'deleteMap', summary: 'Delete the menu map of an app', description: "Deletes the app's learned map (its screens and transitions); 204, or 404 when the app has none. The next exploration learns a new one.", tags, params: PackageParams, response: { 204: { type: 'null' }, ...errors(404, 422) } },
      },
      async (request, reply) => {
        await maps.delete(contextOf(request), request.params.package);
        return reply.code(204).send(null);
      },
    );
  };
}
