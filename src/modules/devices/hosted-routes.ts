// Cloud devices from the application (session only): start, stop and delete (answered at
// once; the lifecycle job does the rest), and seeing and touching a ready device:
// screenshot, live view, a tap on the live view (our extension), installed apps, APK install. Binary answers and the APK body are
// described with their real content types.
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UnsupportedMediaTypeError } from '../../core/errors.js';
import { errors, IdParams } from '../../core/schema.js';
import { contextOf } from '../../http/request-context.js';
import { sessionRoute } from '../../http/route-auth.js';
import { APK_MAX_BYTES, type DeviceActions } from './actions/service.js';
import { LIVE_CONTENT_TYPE } from './actions/live.js';
import type { DeviceLifecycle } from './lifecycle/service.js';
import { Device, InstalledApk, InstalledAppList, LiveQuery, ScreenshotQuery, TapAnswer, TapBody } from './schemas.js';

export const APK_CONTENT_TYPES = ['application/vnd.android.package-archive', 'application/octet-stream'] as const;

const binary = (mediaTypes: string[], description: string) => ({
  description,
  content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary', contentMediaType: type } }])),
});

const NOT_READY = '409 `device_not_ready` unless the device is `ready`; 404 `not_a_cloud_device` for a device on your own machine.';

export function hostedDeviceRoutes(lifecycle: DeviceLifecycle, actions: DeviceActions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['devices'];
    // The APK arrives as the raw body and is handed on as a stream, never buffered whole.
    app.addContentTypeParser([...APK_CONTENT_TYPES], (_request, payload, done) => done(null, payload));

    for (const action of ['start', 'stop'] as const) {
      app.post(
        `/api/hosted/devices/:id/${action}`,
        {
          config: sessionRoute(),
          schema: {
            operationId: action === 'start' ? 'startCloudDevice' : 'stopCloudDevice',
            tags,
            summary: action === 'start' ? 'Start a cloud device (moves toward ready)' : 'Stop a cloud device (moves toward stopped)',
            description:
              action === 'start'
                ? 'Starts a `stopped` (or `error`) cloud device: 202 with the device in `placing`; it then moves through `starting` to `ready` in the background (or to `error`, with `hosted_state_message`). A device in any other state is answered as it is, 200. 404 `not_a_cloud_device` for a device on your own machine.'
                : "Stops a cloud device: 202 with the device in `stopping`; its active run is stopped first and its lease ends, then it becomes `stopped` in the background. A device already `stopping` or `stopped` is answered as it is, 200. 404 `not_a_cloud_device` for a device on your own machine.",
            params: IdParams,
            response: { 200: Device, 202: Device, ...errors(404) },
          },
        },
        async (request, reply) => {
          const answer = await lifecycle[action](contextOf(request), request.params);
          return reply.code(answer.queued ? 202 : 200).send(answer.device);
        },
      );
    }
    app.delete(
      '/api/hosted/devices/:id',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'deleteCloudDevice',
          tags,
          summary: 'Delete a cloud device (its run is stopped first)',
          description: 'Deletes a cloud device: 204 at once, and it is gone from every answer. A device that is running is shut down in the background first: its active run is stopped and its lease ends. 404 `not_a_cloud_device` for a device on your own machine.',
          params: IdParams,
          response: { 204: { type: 'null' }, ...errors(404) },
        },
      },
      async (request, reply) => {
        await lifecycle.remove(contextOf(request), request.params);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/api/hosted/devices/:id/screenshot',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getCloudDeviceScreenshot',
          tags,
          summary: "A picture of the cloud device's screen",
          description: `The screen as PNG (default) or JPEG, scaled down to \`max_edge\` when given. ${NOT_READY}`,
          params: IdParams,
          querystring: ScreenshotQuery,
          response: { 200: binary(['image/png', 'image/jpeg'], 'The image.'), ...errors(404, 409) },
        },
      },
      async (request, reply) => {
        const shot = await actions.screenshot(contextOf(request), { ...request.params, ...request.query });
        return reply.type(shot.format === 'png' ? 'image/png' : 'image/jpeg').header('cache-control', 'no-store').send(shot.data);
      },
    );
    app.get(
      '/api/hosted/devices/:id/live',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'getCloudDeviceLiveView',
          tags,
          summary: "The cloud device's screen, live (MJPEG)",
          description: `A \`multipart/x-mixed-replace; boundary=frame\` stream of JPEG frames (it plays in an \`<img src>\`), at \`fps\` frames a second, for as long as the client stays connected or until the device stops. ${NOT_READY}`,
          params: IdParams,
          querystring: LiveQuery,
          response: { 200: binary(['multipart/x-mixed-replace'], 'The live stream: one `image/jpeg` part per frame, separated by `--frame`.'), ...errors(404, 409) },
        },
      },
      async (request, reply) => {
        const left = new AbortController();
        request.raw.once('close', () => left.abort());
        reply.raw.once('close', () => left.abort());
        const stream = await actions.live(contextOf(request), { ...request.params, ...request.query }, left.signal);
        return reply.type(LIVE_CONTENT_TYPE).header('cache-control', 'no-store').send(stream);
      },
    );
    // Not in app-api.md: our extension so a person can touch what the live view shows
    // (docs/cloud-devices.md, "Tapping from the live view").
    app.post(
      '/api/hosted/devices/:id/tap',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'tapCloudDevice',
          tags,
          summary: 'Tap a cloud device at a point (from the live view)',
          description: `Taps the screen at \`x\`, \`y\` in device pixels (whole numbers within the screen; 422 otherwise) and answers the element the tap landed on, or null. An extension of the contract for the console's live view. 409 \`device_busy\` while the device has an active cloud run: a person does not fight a running macro. ${NOT_READY}`,
          params: IdParams,
          body: TapBody,
          response: { 200: TapAnswer, ...errors(404, 409, 422) },
        },
      },
      async (request) => actions.tap(contextOf(request), { ...request.params, ...request.body }),
    );
    app.get(
      '/api/hosted/devices/:id/apps',
      {
        config: sessionRoute(),
        schema: {
          operationId: 'listCloudDeviceApps',
          tags,
          summary: 'The apps installed on a cloud device',
          description: `The installed apps: package, label and version name. ${NOT_READY}`,
          params: IdParams,
          response: { 200: InstalledAppList, ...errors(404, 409) },
        },
      },
      async (request) => actions.apps(contextOf(request), request.params),
    );
    app.post(
      '/api/hosted/devices/:id/apks',
      {
        config: sessionRoute(),
        bodyLimit: APK_MAX_BYTES,
        schema: {
          operationId: 'installCloudDeviceApk',
          tags,
          summary: 'Install an APK on a cloud device',
          description: `The APK file is the raw body (\`application/vnd.android.package-archive\`, or \`application/octet-stream\`), at most 200 MiB; it is streamed to the device host, never held whole in memory. 201 with the package, label and version read from its manifest. 422 \`invalid_apk\` when the body is not an APK; 422 \`apk_install_failed\` when the device refuses it; 415 for any other content type. ${NOT_READY}`,
          params: IdParams,
          // No `type`: the body reaches the handler as a stream, which a `string` schema would refuse.
          body: { content: Object.fromEntries(APK_CONTENT_TYPES.map((type) => [type, { schema: { format: 'binary', contentMediaType: type, description: 'The APK file, as raw bytes' } }])) },
          response: { 201: InstalledApk, ...errors(404, 409, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const body = request.body as unknown;
        if (!isReadable(body)) throw new UnsupportedMediaTypeError(`Send the APK as the raw body with Content-Type ${APK_CONTENT_TYPES[0]}.`);
        const length = request.headers['content-length'];
        const declaredBytes = length === undefined ? undefined : Number(length);
        return reply.code(201).send(await actions.installApk(contextOf(request), { ...request.params, body, declaredBytes }));
      },
    );
  };
}

function isReadable(value: unknown): value is Readable {
  return typeof value === 'object' && value !== null && typeof (value as Readable).pipe === 'function' && typeof (value as Readable).on === 'function';
}
