// The image-library tools (scope devices:control): crop a region of the screen into the
// library, and list the library. Reading text and finding an image on the screen are device
// actions of the catalogue (device-input-tools.ts). Each parses, resolves the lease, and
// calls the images module's ScreenImages or ImageLibrary.
import { Type } from 'typebox';
import { Image, ImageName } from '../../images/index.js';
import { MIN_TEMPLATE_SIDE } from '../../vision/index.js';
import { registerScopedTool, type ToolCatalog } from '../tool-catalog.js';
import type { ToolDeps } from './deps.js';
import { Coordinate, LeaseId } from './schemas.js';

const TEMPLATE_PAGE = 200;

const Side = Type.Integer({ minimum: MIN_TEMPLATE_SIDE, maximum: 100_000, description: `Device pixels, at least ${MIN_TEMPLATE_SIDE}` });

export function registerScreenTools(catalog: ToolCatalog, deps: ToolDeps): void {
  const { leases, screen, images } = deps;

  registerScopedTool(catalog, {
    name: 'template_crop',
    scope: 'devices:control',
    title: 'Crop a template from the screen',
    description: 'Cuts the rectangle x, y, w, h (device pixels, inside the screen) of the current screen into your image library as a PNG, with source "crop", and answers its record. Use its id with device_find_image, in macro code (svc_device.find_image) or in block steps.',
    input: Type.Object({ lease_id: LeaseId, x: Coordinate, y: Coordinate, w: Side, h: Side, name: ImageName }, { additionalProperties: false }),
    output: Image,
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      return { data: { ...(await screen.crop(ctx, driver, { x: input.x, y: input.y, w: input.w, h: input.h, name: input.name })) } };
    },
  });

  registerScopedTool(catalog, {
    name: 'template_list',
    scope: 'devices:control',
    title: 'List the image library',
    description: `Images of your library, newest first (${TEMPLATE_PAGE} a page), optionally only those whose name contains a text (ignoring case).`,
    input: Type.Object(
      { name: Type.Optional(Type.String({ maxLength: 100 })), page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })) },
      { additionalProperties: false },
    ),
    output: Type.Object({ items: Type.Array(Image), total: Type.Integer({ description: 'How many images match, on every page' }) }),
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      const answer = await images.list(ctx, { name: input.name, page: input.page ?? 1, page_size: TEMPLATE_PAGE });
      return { data: { items: answer.rows, total: answer.total_rows } };
    },
  });
}
