// The agent's device tools (decisions.md §13): the §12 device tools on the session's leased
// device, answered as short text for the model. Password fields are masked where the tree
// is read, so a typed password never reaches a prompt.
import { centerOf, type DeviceDriver, findByText, type UiElement } from '../../devices/index.js';
import { isPasswordField } from './redact.js';
import { type ToolOutcome, toolError as refused } from './tool-outcome.js';

/** What the model is shown: JPEG, longer edge at most 1280 px, as tool clients get it (§9). */
const MODEL_SCREENSHOT = { format: 'jpeg', maxEdge: 1280, quality: 80 } as const;

const inside = (b: UiElement['bounds'], r: UiElement['bounds']) => b.left >= r.left && b.top >= r.top && b.right <= r.right && b.bottom <= r.bottom;
const textOf = (e: UiElement) => (isPasswordField(e) && e.editable ? '[password field]' : e.text);

function describe(e: UiElement) {
  return { element_id: e.element_id, text: textOf(e), resource_id: e.resource_id, content_desc: e.content_desc, class: e.class, clickable: e.clickable, bounds: e.bounds, center: centerOf(e) };
}

const ok = (content: string, summary: string): ToolOutcome => ({ content, summary });

type Args = Record<string, unknown>;

export async function runDeviceTool(name: string, args: Args, driver: DeviceDriver): Promise<ToolOutcome> {
  switch (name) {
    case 'device_screenshot': {
      const [shot, size] = await Promise.all([driver.screenshot(MODEL_SCREENSHOT), driver.screenSize()]);
      const scale = Math.round((shot.width / size.width) * 10_000) / 10_000;
      const caption = `Screenshot ${shot.width}×${shot.height} of a ${size.width}×${size.height} screen; device pixel = image pixel ÷ ${scale}.`;
      return { content: `${caption} The image follows in the next message.`, summary: `screenshot ${shot.width}×${shot.height}`, screenshot: { base64: shot.data.toString('base64'), caption } };
    }
    case 'device_ui_tree': {
      const elements = (await driver.uiTree()).map(describe);
      return ok(JSON.stringify({ elements }), `${elements.length} elements`);
    }
    case 'device_read_text': {
      const region = args.region as UiElement['bounds'] | undefined;
      const lines = (await driver.uiTree())
        .filter((e) => (textOf(e) || e.content_desc) && (!region || inside(e.bounds, region)))
        .sort((a, b) => a.bounds.top - b.bounds.top || a.bounds.left - b.bounds.left)
        .map((e) => ({ text: textOf(e) || e.content_desc, element_id: e.element_id, center: centerOf(e) }));
      return ok(JSON.stringify({ lines }), `${lines.length} lines`);
    }
    case 'device_tap':
      return tap(args, driver);
    case 'device_swipe': {
      const from = args.from as { x: number; y: number };
      const to = args.to as { x: number; y: number };
      await driver.swipe(from.x, from.y, to.x, to.y, (args.ms as number | undefined) ?? 300);
      return ok('Swiped.', `swiped ${from.x},${from.y} → ${to.x},${to.y}`);
    }
    case 'device_type': {
      await driver.typeText(args.text as string);
      if (args.submit === true) await driver.pressKey('ENTER');
      return ok('Typed.', `typed ${(args.text as string).length} characters${args.submit === true ? ' and ENTER' : ''}`);
    }
    case 'device_key':
      await driver.pressKey(args.key as string);
      return ok('Pressed.', `pressed ${args.key as string}`);
    case 'app_open':
      await driver.openApp(args.package as string);
      return ok('Opened.', `opened ${args.package as string}`);
    case 'app_close':
      await driver.closeApp(args.package as string);
      return ok('Closed.', `closed ${args.package as string}`);
    default:
      return refused(`${name} is not a device tool.`);
  }
}

async function tap(args: Args, driver: DeviceDriver): Promise<ToolOutcome> {
  const forms = [args.x !== undefined || args.y !== undefined, args.element_id !== undefined, args.text !== undefined].filter(Boolean).length;
  if (forms !== 1 || (args.x === undefined) !== (args.y === undefined)) return refused('device_tap needs exactly one target: x and y, element_id, or text.');
  let point: { x: number; y: number };
  if (args.x !== undefined) {
    point = { x: args.x as number, y: args.y as number };
  } else {
    const elements = await driver.uiTree();
    const target = args.element_id !== undefined ? elements.find((e) => e.element_id === args.element_id) : findByText(elements, args.text as string);
    if (!target) return refused(args.element_id !== undefined ? `no element ${String(args.element_id)} on screen; read device_ui_tree again.` : `no element showing "${String(args.text)}" on screen.`);
    point = centerOf(target);
  }
  const hit = await driver.tap(point.x, point.y);
  const what = hit ? `${hit.element_id}${hit.text ? ` "${textOf(hit)}"` : ''}` : 'nothing clickable';
  return ok(JSON.stringify({ x: point.x, y: point.y, hit: hit ? describe(hit) : null }), `tapped ${point.x},${point.y}: ${what}`);
}
