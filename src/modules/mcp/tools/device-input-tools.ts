// The tools that drive a leased device (scope devices:control): look (screenshot, UI tree;
// text and images are screen-tools.ts), touch (tap, swipe, type, key) and apps (list, open, close). Each resolves its lease
// first (someone else's or an ended lease is not found) and then calls the host's
// DeviceDriver, the same driver the device RPC of a run uses.
import { Type } from 'typebox';
import { NotFoundError, ValidationError } from '../../../core/errors.js';
import { Nullable } from '../../../core/schema.js';
import { centerOf, findById, findByText, type LeaseService, UiElementWithCenter, withCenter } from '../../devices/index.js';
import { registerScopedTool, type ToolCatalog } from '../tool-catalog.js';
import { Coordinate, LeaseId, Point } from './schemas.js';

/** Tool clients get JPEG at quality 80 with the longer edge at most 1280 px (decisions.md §9). */
export const TOOL_SCREENSHOT = { format: 'jpeg', maxEdge: 1280, quality: 80 } as const;

const Element = UiElementWithCenter;

const present = withCenter;

const leaseOnly = Type.Object({ lease_id: LeaseId }, { additionalProperties: false });
const done = (text: string) => ({ content: [{ type: 'text' as const, text }] });

export function registerDeviceInputTools(catalog: ToolCatalog, leases: LeaseService): void {
  registerScopedTool(catalog, {
    name: 'device_screenshot',
    scope: 'devices:control',
    title: 'Take a screenshot',
    description: 'The screen as a JPEG (longer edge at most 1280 px), after a text line giving the image size, the device size and the scale. Coordinates for the other tools are device pixels: divide image pixels by the scale.',
    input: leaseOnly,
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      const [shot, size] = await Promise.all([driver.screenshot(TOOL_SCREENSHOT), driver.screenSize()]);
      const scale = Math.round((shot.width / size.width) * 10_000) / 10_000;
      const text = `Screenshot ${shot.width}×${shot.height} JPEG of a ${size.width}×${size.height} device screen; scale ${scale} (device pixel = image pixel ÷ ${scale}).`;
      return { content: [{ type: 'text', text }, { type: 'image', data: shot.data.toString('base64'), mimeType: 'image/jpeg' }] };
    },
  });

  registerScopedTool(catalog, {
    name: 'device_ui_tree',
    scope: 'devices:control',
    title: 'Read the UI tree',
    description: 'Every element of the screen in document order, with its element_id, text, resource_id, content_desc, class, clickable, scrollable (a list or other container that scrolls: swipe inside its bounds to see more), bounds and center (device pixels). Tap an element by its element_id or center.',
    input: leaseOnly,
    output: Type.Object({ elements: Type.Array(Element) }),
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      return { data: { elements: (await driver.uiTree()).map(present) } };
    },
  });

  registerScopedTool(catalog, {
    name: 'device_tap',
    scope: 'devices:control',
    title: 'Tap',
    description: 'Taps a point (x and y, device pixels), an element (element_id from device_ui_tree) or the element showing a text in its text or content description (spaces around ignored; an exact match first, else one containing it, ignoring case; a clickable one preferred, the element tap_text picks in a macro). Answers the element hit, if any.',
    input: Type.Object(
      { lease_id: LeaseId, x: Type.Optional(Coordinate), y: Type.Optional(Coordinate), element_id: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })), text: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
      { additionalProperties: false },
    ),
    output: Type.Object({ x: Type.Integer(), y: Type.Integer(), hit: Nullable(Element) }),
    async run(ctx, input) {
      const forms = [input.x !== undefined || input.y !== undefined, input.element_id !== undefined, input.text !== undefined].filter(Boolean).length;
      if (forms !== 1 || (input.x === undefined) !== (input.y === undefined)) {
        throw new ValidationError([{ path: 'arguments', message: 'must name exactly one target: x and y, element_id, or text' }]);
      }
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      let point = { x: input.x ?? 0, y: input.y ?? 0 };
      if (input.x === undefined) {
        const elements = await driver.uiTree();
        const target = input.element_id !== undefined ? findById(elements, input.element_id) : findByText(elements, input.text ?? '');
        if (!target) throw new NotFoundError(input.element_id !== undefined ? `No element ${input.element_id} on the screen.` : `No element shows the text ${JSON.stringify(input.text)}.`);
        point = centerOf(target);
      }
      const hit = await driver.tap(point.x, point.y, { identify: true });
      return { data: { ...point, hit: hit ? present(hit) : null } };
    },
  });

  registerScopedTool(catalog, {
    name: 'device_swipe',
    scope: 'devices:control',
    title: 'Swipe',
    description: 'Swipes from one point to another (device pixels) over ms milliseconds (default 300). Swipe up to scroll down.',
    input: Type.Object({ lease_id: LeaseId, from: Point, to: Point, ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000, default: 300 })) }, { additionalProperties: false }),
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      await driver.swipe(input.from.x, input.from.y, input.to.x, input.to.y, input.ms ?? 300);
      return done('Swiped.');
    },
  });

  registerScopedTool(catalog, {
    name: 'device_type',
    scope: 'devices:control',
    title: 'Type text',
    description: 'Types into the focused field (tap the field first); submit presses ENTER afterwards.',
    input: Type.Object({ lease_id: LeaseId, text: Type.String({ maxLength: 10_000 }), submit: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false }),
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      await driver.typeText(input.submit ? `${input.text}\n` : input.text);
      return done(input.submit ? 'Typed and pressed ENTER.' : 'Typed.');
    },
  });

  registerScopedTool(catalog, {
    name: 'device_key',
    scope: 'devices:control',
    title: 'Press a key',
    description: 'Presses an Android key: BACK, HOME, ENTER, APP_SWITCH, DEL, … (KEYCODE_ optional).',
    input: Type.Object({ lease_id: LeaseId, key: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      await driver.pressKey(input.key);
      return done(`Pressed ${input.key}.`);
    },
  });

  registerAppTools(catalog, leases);
}

function registerAppTools(catalog: ToolCatalog, leases: LeaseService): void {
  const Package = Type.String({ minLength: 1, maxLength: 255, description: 'An Android package name, like com.example.app' });
  const withPackage = Type.Object({ lease_id: LeaseId, package: Package }, { additionalProperties: false });

  registerScopedTool(catalog, {
    name: 'app_list',
    scope: 'devices:control',
    title: 'List installed apps',
    description: 'The apps installed on the leased device: package, label and version.',
    input: leaseOnly,
    output: Type.Object({ items: Type.Array(Type.Object({ package: Type.String(), label: Type.String(), version_name: Type.String() })) }),
    annotations: { readOnlyHint: true },
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      return { data: { items: await driver.listApps() } };
    },
  });

  registerScopedTool(catalog, {
    name: 'app_open',
    scope: 'devices:control',
    title: 'Open an app',
    description: 'Brings an installed app to the front (its last screen if it was running).',
    input: withPackage,
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      await driver.openApp(input.package);
      return done(`Opened ${input.package}.`);
    },
  });

  registerScopedTool(catalog, {
    name: 'app_close',
    scope: 'devices:control',
    title: 'Close an app',
    description: 'Force-stops an app: its screens and unsaved field contents are gone.',
    input: withPackage,
    annotations: { destructiveHint: true },
    async run(ctx, input) {
      const { driver } = await leases.resolve(ctx, { lease_id: input.lease_id });
      await driver.closeApp(input.package);
      return done(`Closed ${input.package}.`);
    },
  });
}
