// Checks an app description (app-schema.ts): first its shape, then what a schema cannot say:
// unique ids, links that land, bounds on the screen (or in the scrolling content), loading
// ranges, interrupts naming a dialog. Every message names the file (when given), the screen
// and the element, so a person fixing a description in SIM_APPS_DIR finds the place at once.
import { Value } from 'typebox/value';
import { isDialogScreen, SIM_CONTENT_MAX_Y, SIM_SCREEN, type SimApp, SimAppDescriptionError, SimAppSchema, type SimElement, type SimScreen, scrollsWithContent } from './app-schema.js';

/** The element id the scrolling container takes in the UI tree (view.ts); a description may not use it on a scrolling screen. */
export const SCROLL_CONTAINER_ID = 'scroll_container';

type Where = (screen?: SimScreen | string, element?: SimElement | string) => string;

/** `/screens/3/elements/2/bounds` → "screen feed element row_2: /screens/3/elements/2/bounds" (ids read from the input when it has them). */
function describePath(input: unknown, path: string): string {
  const parts = path.split('/').filter(Boolean);
  const names: string[] = [];
  let node: unknown = input;
  for (let i = 0; i < parts.length; i++) {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[parts[i]] : undefined;
    const id = node && typeof node === 'object' ? (node as { id?: unknown }).id : undefined;
    if (parts[i - 1] === 'screens') names.push(`screen ${typeof id === 'string' ? id : `#${parts[i]}`}`);
    if (parts[i - 1] === 'elements') names.push(`element ${typeof id === 'string' ? id : `#${parts[i]}`}`);
    if (parts[i - 1] === 'interrupts') names.push(`interrupt #${parts[i]}`);
  }
  return names.length > 0 ? `${names.join(' ')} (${path})` : path || '/';
}

/** Checks and answers the description; `source` (a file name) leads every message. */
export function parseSimApp(input: unknown, source?: string): SimApp {
  const lead = `Invalid app description${source ? ` ${source}` : ''}`;
  if (!Value.Check(SimAppSchema, input)) {
    const problems = Value.Errors(SimAppSchema, input)
      .filter((e) => e.keyword !== 'boolean')
      .slice(0, 5)
      .map((e) => `${describePath(input, e.instancePath)} ${e.message}`);
    throw new SimAppDescriptionError(`${lead}: ${problems.join('; ')}`);
  }
  const app = input;
  const where: Where = (screen, element) => {
    const s = typeof screen === 'string' ? screen : screen?.id;
    const e = typeof element === 'string' ? element : element?.id;
    return `${app.package}${s ? ` screen ${s}` : ''}${e ? ` element ${e}` : ''}`;
  };
  const fail = (message: string): never => {
    throw new SimAppDescriptionError(`${lead}: ${message}`);
  };
  const screenIds = new Set<string>();
  for (const screen of app.screens) {
    if (screenIds.has(screen.id)) fail(`${where(screen)} is defined twice`);
    screenIds.add(screen.id);
  }
  for (const screen of app.screens) checkScreen(screen, screenIds, where, fail);
  (app.interrupts ?? []).forEach((rule, i) => {
    const screen = app.screens.find((s) => s.id === rule.screen);
    if (!screen) return fail(`${where()} interrupt #${i} names unknown screen "${rule.screen}"`);
    if (!isDialogScreen(screen)) fail(`${where(screen)} is named by interrupt #${i} but is not a dialog (a first element, not clickable, holding all the others)`);
    if (screen.id === app.screens[0].id) fail(`${where(screen)} is the app's first screen and cannot interrupt it`);
    if (rule.every_opens === undefined && rule.after_opens === undefined && rule.probability === undefined) {
      fail(`${where()} interrupt #${i} needs every_opens, after_opens or probability`);
    }
  });
  return app;
}

/** What a `sets` key names: a screen and an element of it, as a `{screen.element}` placeholder does. */
const SETS_TARGET = /^[a-z][a-z0-9_]{0,63}\.[a-z][a-z0-9_]{0,63}$/;

function checkScreen(screen: SimScreen, screenIds: Set<string>, where: Where, fail: (message: string) => never): void {
  if (screen.loading_ms && screen.loading_ms.min > screen.loading_ms.max) fail(`${where(screen)} has loading_ms.min above loading_ms.max`);
  if (screen.scroll && screen.scroll.bottom <= screen.scroll.top) fail(`${where(screen)} has scroll.bottom at or above scroll.top`);
  const elementIds = new Set<string>();
  for (const element of screen.elements) {
    if (elementIds.has(element.id)) fail(`${where(screen, element)} is defined twice`);
    elementIds.add(element.id);
    if (screen.scroll && element.id === SCROLL_CONTAINER_ID) fail(`${where(screen, element)} uses the id the scrolling container takes in the UI tree`);
    const b = element.bounds;
    const maxBottom = scrollsWithContent(screen, element) ? SIM_CONTENT_MAX_Y : SIM_SCREEN.height;
    if (b.right <= b.left || b.bottom <= b.top || b.right > SIM_SCREEN.width || b.bottom > maxBottom) {
      const room = maxBottom === SIM_SCREEN.height ? `the ${SIM_SCREEN.width}×${SIM_SCREEN.height} screen` : `the scrolling content (${SIM_SCREEN.width} wide, down to y = ${SIM_CONTENT_MAX_Y})`;
      fail(`${where(screen, element)} has bounds outside ${room} or empty`);
    }
    if (element.fixed !== undefined && !screen.scroll) fail(`${where(screen, element)} is marked fixed on a screen without scroll`);
    const to = element.to;
    if (to !== undefined && to !== 'back' && !to.startsWith('package:') && !screenIds.has(to)) fail(`${where(screen, element)} leads to unknown screen "${to}"`);
    for (const target of Object.keys(element.sets ?? {})) {
      if (!SETS_TARGET.test(target)) fail(`${where(screen, element)} sets "${target}", which is not screen.element`);
      if (!screenIds.has(target.split('.')[0]!)) fail(`${where(screen, element)} sets "${target}" of unknown screen`);
    }
    if (element.sets && element.editable) fail(`${where(screen, element)} is editable and cannot have sets (a tap on it focuses it)`);
  }
}
