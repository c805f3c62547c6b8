// The image library's application routes (session only: tool clients use `template_crop`
// and `template_list`). Someone else's image answers 404, as a missing one does.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../../core/schema.js';
import { contextOf } from '../../http/request-context.js';
import { sessionRoute } from '../../http/route-auth.js';
import type { DeviceActions } from '../devices/index.js';
import type { ImageLibrary } from './library.js';
import { CropImageBody, Image, ImageIdParams, ImageListQuery, ImagePage, UploadImageBody } from './schemas.js';
import type { ScreenImages } from './screen-images.js';

/**
 * `driverFor`: the driver of the caller's cloud device, which must be `ready`: 404 for someone
 * else's device (`not_found`) or one on their own machine (`not_a_cloud_device`), 409
 * `device_not_ready` otherwise.
 */
export type CloudScreen = Pick<DeviceActions, 'driverFor'>;

/**
 * A 5 MiB picture in base64 is 7 MiB; the body may be 8 MiB, so a picture a little over its
 * limit is told the picture's limit (5 MiB) rather than the body's.
 */
export const UPLOAD_BODY_LIMIT = 8 * 1024 * 1024;

const BAD_PICTURE = '422 `invalid_image` for bytes that are not a whole PNG or JPEG, `image_too_large` past 8192 pixels a side or 16.7 million pixels; 413 `payload_too_large` past 5 MiB.';

export function imageRoutes(library: ImageLibrary, screen: ScreenImages, cloudScreen: CloudScreen): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['images'];
    app.post(
      '/api/images',
      {
        config: sessionRoute(),
        bodyLimit: UPLOAD_BODY_LIMIT,
        schema: {
          operationId: 'uploadImage',
          tags,
          summary: 'Add a picture to the image library',
          description: `Stores a PNG or JPEG (at most 5 MiB) under a new \`img_…\` id that macros name in code (decisions.md §5). Width, height and content type are read from the picture. ${BAD_PICTURE}`,
          body: UploadImageBody,
          response: { 201: Image, ...errors(400, 413, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(await library.upload(contextOf(request), request.body)),
    );
    // Not in app-api.md: our extension, the console's "crop from the live view" (a tool client
    // crops with template_crop on a lease). It reads the screen as it is now, like the
    // screenshot route, so it needs no lease and is allowed while a run is active.
    app.post(
      '/api/images/crop',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'cropImage',
          tags,
          summary: "Cut a rectangle of a cloud device's screen into the library",
          description:
            "Takes the screen of one of your `ready` cloud devices now (full size, PNG) and stores the rectangle `x`, `y`, `w`, `h` (device pixels; at least 8 a side) as a PNG with `source: \"crop\"`: what the console's live view calls when a person drags a rectangle. An extension of the contract; tool clients use `template_crop`. 422 `validation_failed` (`region`) when the rectangle leaves the screen; 404 `not_a_cloud_device` for a device on your own machine, `not_found` for someone else's; 409 `device_not_ready` unless the device is `ready`.",
          body: CropImageBody,
          response: { 201: Image, ...errors(404, 409, 422) },
        },
      },
      async (request, reply) => {
        const ctx = contextOf(request);
        const { device_id: deviceId, ...rectangle } = request.body;
        const driver = await cloudScreen.driverFor(ctx, deviceId);
        return reply.code(201).send(await screen.crop(ctx, driver, rectangle));
      },
    );
    app.get(
      '/api/images',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'listImages',
          tags,
          summary: 'List the image library, newest first',
          description: "A page of the signed-in user's images, newest first, optionally filtered by a case-insensitive substring of the name or by how they came in.",
          querystring: ImageListQuery,
          response: { 200: ImagePage, ...errors(422) },
        },
      },
      async (request) => library.list(contextOf(request), request.query),
    );
    app.get(
      '/api/images/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getImage',
          tags,
          summary: 'Read an image record',
          description: "One image's record. Someone else's image answers 404.",
          params: ImageIdParams,
          response: { 200: Image, ...errors(404, 422) },
        },
      },
      async (request) => library.get(contextOf(request), request.params.id),
    );
    app.get(
      '/api/images/:id/content',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getImageContent',
          tags,
          summary: 'The stored picture',
          description: 'The bytes exactly as stored, with their content type. An image never changes (an id always names the same bytes), so the answer may be cached privately; `ETag` is its SHA-256.',
          params: ImageIdParams,
          response: {
            200: {
              description: 'The picture.',
              content: Object.fromEntries(['image/png', 'image/jpeg'].map((type) => [type, { schema: { type: 'string', format: 'binary', contentMediaType: type } }])),
            },
            ...errors(404, 422),
          },
        },
      },
      async (request, reply) => {
        const content = await library.content(contextOf(request), request.params.id);
        // Private: the picture belongs to the signed-in account, so no shared cache keeps it. An id
        // never names other bytes, so the browser may keep it.
        reply.header('cache-control', 'private, max-age=86400, immutable').header('etag', `"${content.sha256}"`).header('x-content-type-options', 'nosniff');
        return reply.type(content.contentType).send(content.bytes);
      },
    );
    app.delete(
      '/api/images/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'deleteImage',
          tags,
          summary: 'Delete an image',
          description: 'Removes the image from the library. Macros that still name it fail at that step ("no image …"); a code upload warns `unknown_image` for it.',
          params: ImageIdParams,
          response: { 204: { type: 'null' }, ...errors(404, 422) },
        },
      },
      async (request, reply) => {
        await library.remove(contextOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
