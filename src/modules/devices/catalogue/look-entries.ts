// The catalogue's looking actions: the screen as a picture, the UI tree, the text on screen,
// the elements a selector names now (no wait), and where a library image shows.
import { Type } from 'typebox';
import { ValidationError } from '../../../core/errors.js';
import { withCenter } from '../actions/find-element.js';
import type { Bounds } from '../hosts/types.js';
import { BoundsSchema, Center, defineEntry, Element, strict } from './entry.js';
import { IMAGE_THRESHOLD_DEFAULT, matchesOn, pickIndex, readScreen } from './look.js';
import { parseSelector, Selector } from './selector.js';

/** Tool clients and the agent get JPEG at quality 80, longer edge at most 1280 px (decisions.md §9). */
export const TOOL_SCREENSHOT = { format: 'jpeg', maxEdge: 1280, quality: 80 } as const;

const TextLine = Type.Object({
  text: Type.String(),
  bounds: BoundsSchema,
  center: Center,
  source: Type.Union([Type.Literal('tree'), Type.Literal('ocr')], { description: '`tree`: an element of the UI tree says it; `ocr`: read from the picture' }),
  confidence: Type.Number({ description: '1 for the tree; how sure the recogniser is for OCR, 0..1' }),
  element_id: Type.Optional(Type.String({ description: 'Tree lines: the element holding the text' })),
});

const Match = Type.Object({
  x: Type.Integer({ description: 'Left edge, device pixels' }),
  y: Type.Integer({ description: 'Top edge, device pixels' }),
  w: Type.Integer(),
  h: Type.Integer(),
  score: Type.Number({ description: 'Normalised correlation, 0..1' }),
  scale: Type.Optional(Type.Number({ description: "The template's size on this screen over its own" })),
  center: Center,
});


function checkRegion(region: Bounds | undefined) {
  if (region && (region.right <= region.left || region.bottom <= region.top)) throw new ValidationError([{ path: 'region', message: 'must have right > left and bottom > top' }]);
}

export const LOOK_ENTRIES = [
  defineEntry({
    name: 'device_screenshot',
    title: 'Take a screenshot',
    description: 'The screen as a JPEG (longer edge at most 1280 px), after a text line giving the image size, the device size and the scale. Coordinates for the other actions are device pixels: divide image pixels by the scale.',
    input: strict({}),
    readOnly: true,
    async run(env) {
      const [shot, size] = await Promise.all([env.driver.screenshot(TOOL_SCREENSHOT), env.driver.screenSize()]);
      const scale = Math.round((shot.width / size.width) * 10_000) / 10_000;
      const caption = `Screenshot ${shot.width}×${shot.height} JPEG of a ${size.width}×${size.height} device screen; scale ${scale} (device pixel = image pixel ÷ ${scale}).`;
      return { text: caption, image: { base64: shot.data.toString('base64'), mimeType: 'image/jpeg', caption } };
    },
  }),
  defineEntry({
    name: 'device_ui_tree',
    title: 'Read the UI tree',
    description: 'Every element of the screen in document order, with its element_id, text, resource_id, content_desc, class, clickable, editable, scrollable, bounds and center (device pixels).',
    input: strict({}),
    output: Type.Object({ elements: Type.Array(Element) }),
    readOnly: true,
    async run(env) {
      const elements = (await env.driver.uiTree()).map(withCenter);
      return { data: { elements }, text: `${elements.length} elements` };
    },
  }),
  defineEntry({
    name: 'device_read_text',
    title: 'Read the text on screen',
    description:
      'The text on the screen in reading order, each line {text, bounds, center, source, confidence} in device pixels. By default from the UI tree (source "tree", confidence 1: exact and instant); with ocr: true from the picture (source "ocr"), for text the tree lacks. Optionally only lines whose centre lies inside region.',
    input: strict({ region: Type.Optional(BoundsSchema), ocr: Type.Optional(Type.Boolean({ default: false, description: 'Read the picture (OCR) instead of the UI tree' })) }),
    output: Type.Object({ lines: Type.Array(TextLine) }),
    readOnly: true,
    async run(env, input) {
      checkRegion(input.region);
      const lines = await env.vision.readText(env.driver, { ocr: input.ocr, region: input.region });
      return { data: { lines }, text: `${lines.length} lines` };
    },
  }),
  defineEntry({
    name: 'device_find',
    title: 'Find elements',
    description: 'The visible elements a selector names now, in tree order (possibly none); it does not wait. Use it to look before acting, or to count.',
    input: strict({ selector: Selector }),
    output: Type.Object({ items: Type.Array(Element) }),
    readOnly: true,
    async run(env, input) {
      const selector = parseSelector(input.selector);
      const items = pickIndex(selector, await matchesOn(env, selector, await readScreen(env)));
      return { data: { items }, text: `${items.length} found` };
    },
  }),
  defineEntry({
    name: 'device_find_image',
    title: 'Find a library image on screen',
    description: `Where an image of your library shows on the screen now, at any scale from 0.5× to 2×: every match scoring at least threshold (default ${IMAGE_THRESHOLD_DEFAULT}), best first, as x, y (top-left), w, h and center in device pixels. An empty list means it does not show.`,
    input: strict({
      image_id: Type.String({ pattern: '^img_[0-9a-f]{16}$', description: 'An image-library id' }),
      threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: IMAGE_THRESHOLD_DEFAULT })),
    }),
    output: Type.Object({ matches: Type.Array(Match) }),
    readOnly: true,
    async run(env, input) {
      const found = await env.vision.find(env.owner, env.driver, { imageId: input.image_id, threshold: input.threshold ?? IMAGE_THRESHOLD_DEFAULT });
      const matches = found.map((m) => ({ ...m, center: { x: m.x + Math.floor(m.w / 2), y: m.y + Math.floor(m.h / 2) } }));
      return { data: { matches }, text: `${matches.length} matches` };
    },
  }),
];
