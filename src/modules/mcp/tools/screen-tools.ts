// The tools that see what the UI tree does not name (scope devices:control): read text (from
// the tree, or from the pixels with `ocr`), find a library image on the screen, crop a
// region of the screen into the library, and list the library. Each parses, resolves the
// lease, and calls the images module's ScreenImages or ImageLibrary, the same services a
// macro's `find_image` and the block steps use.
import { Type } from 'typebox';
import { Image, ImageId, ImageName } from '../../images/index.js';
import { DEFAULT_MATCH_THRESHOLD, MIN_TEMPLATE_SIDE } from '../../vision/index.js';
import { registerScopedTool, type ToolCatalog } from '../tool-catalog.js';
import type { ToolDeps } from './deps.js';
import { Bounds, Center, Coordinate, LeaseId } from './schemas.js';

/** Tool clients pass the same default as the SDK and block steps (decisions.md §10, §11). */
const THRESHOLD_DEFAULT = 0.9;
const TEMPLATE_PAGE = 200;

const TextLine = Type.Object({
  text: Type.String(),
  bounds: Bounds,
  center: Center,
  source: Type.Union([Type.Literal('ui_tree'), Type.Literal('ocr')], { description: '`ui_tree`: an element said it; `ocr`: read from the pixels' }),
  element_id: Type.Optional(Type.String({ description: 'UI tree lines: the element holding the text (tap it by id)' })),
  confidence: Type.Optional(Type.Number({ description: 'OCR lines: how sure the recogniser is, 0..1' })),
});

const Match = Type.Object({
  x: Type.Integer({ description: 'Left edge, device pixels' }),
  y: Type.Integer({ description: 'Top edge, device pixels' }),
  w: Type.Integer(),
  h: Type.Integer(),
  score: Type.Number({ description: 'Normalised correlation, 0..1' }),
  scale: Type.Number({ description: "The template's size on this screen over its own" }),
  center: Center,
});

const Side = Type.Integer({ minimum: MIN_TEMPLATE_SIDE, maximum: 100_000, description: `Device pixels, at least ${MIN_TEMPLATE_SIDE}` });

export function registerScreenTools(catalog: ToolCatalog, deps: ToolDeps): void {
  const { leases, screen, images } = deps;

  registerScopedTool(catalog, {
    name: 'device_read_text',
    scope: 'devices:control',
    title: 'Read the text on screen',
    description:
      'The text on the screen in reading order, each line with its bounds and center (device pixels). By default from the UI tree (exact, instant). Set ocr: true to read the pixels instead, for text the tree does not hold (games, canvases, pictures of text); optionally only inside region.',
    input: Type.Object({ lease_id: LeaseId, region: Type.Optional(Bounds), ocr: Type.Optional(Type.Boolean({ default: false, description: 'Read the pixels (OCR) instead of the UI tree' })) }, { additionalProperties: false }),
    output: Type.Object({ lines: Type.Array(TextLine) }),
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      return { data: { lines: await screen.readText(driver, { region: input.region, ocr: input.ocr }) } };
    },
  });

  registerScopedTool(catalog, {
    name: 'device_find_image',
    scope: 'devices:control',
    title: 'Find a library image on screen',
    description: `Where an image of your library (template_list, template_crop) shows on the screen now, at any scale from 0.5× to 2×: every match scoring at least threshold (default ${THRESHOLD_DEFAULT}), best first, as x, y (top-left), w, h and center in device pixels. Tap a match at its center. An empty list means it does not show.`,
    input: Type.Object(
      { lease_id: LeaseId, image_id: ImageId, threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: THRESHOLD_DEFAULT, description: `0..1; the engine's own floor for look-alikes is ${DEFAULT_MATCH_THRESHOLD}` })) },
      { additionalProperties: false },
    ),
    output: Type.Object({ matches: Type.Array(Match) }),
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      const matches = await screen.find(ctx, driver, { imageId: input.image_id, threshold: input.threshold ?? THRESHOLD_DEFAULT });
      return { data: { matches: matches.map((m) => ({ ...m, center: { x: m.x + Math.floor(m.w / 2), y: m.y + Math.floor(m.h / 2) } })) } };
    },
  });

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
