// One simulated screen drawn without a device or a database: the picture the `sim` host's
// driver would answer for that screen, its UI tree, and the text it drew. For fixtures
// (template matching and OCR accuracy), benchmarks and documentation pictures; the service
// itself always goes through a booted device. Same catalogue, view and renderer as the host,
// so a fixture cannot drift from what a macro sees.
import { ValidationError } from '../../../../core/errors.js';
import type { Screenshot, ScreenshotOptions, UiElement } from '../types.js';
import { createSimCatalogue, type SimCatalogue } from './catalogue.js';
import { type DrawnText, drawnTexts } from './render/drawn-text.js';
import { ScreenRenderer } from './render/raster.js';
import { SCRIM, viewLayers } from './render/svg.js';
import { bootState, fieldKey, LAUNCHER_PACKAGE } from './state.js';
import { buildView, type SimView, uiTreeOf } from './view.js';

export interface SimScreenRequest {
  /** The app in front; omitted (or the launcher's package) for the home screen. */
  package?: string;
  /** The app's screen stack, bottom first; a dialog needs the screen beneath it. Default: the app's first screen. */
  stack?: string[];
  /** Field contents and switch positions (`on`/`off`) by `screen.element`, e.g. `{"checkout.full_name": "Ada"}`. */
  fields?: Record<string, string>;
  /** The focused field, as `screen.element`. */
  focus?: string;
  /** The clock the status bar and the home screen show (default 2026-03-02 09:41 local time). */
  now?: number;
  /** More app descriptions (JSON as in decisions.md §9) besides the built-in ones. */
  apps?: unknown[];
}

export interface SimScreenPicture extends Screenshot {
  /** The UI tree a driver would answer on this screen. */
  elements: UiElement[];
  /** The text the picture shows (not what a dialog covers), in 1080×2400 screen pixels whatever `maxEdge` was. */
  texts: DrawnText[];
}

const DEFAULT_NOW = new Date(2026, 2, 2, 9, 41).getTime();
const renderer = new ScreenRenderer();
const catalogues = new Map<string, SimCatalogue>();

function catalogueFor(apps: unknown[] = []): SimCatalogue {
  const key = JSON.stringify(apps);
  let catalogue = catalogues.get(key);
  if (!catalogue) {
    // A handful of app sets at most in a test run; a caller varying them without end is not kept.
    if (catalogues.size >= 16) catalogues.clear();
    catalogue = createSimCatalogue(apps);
    catalogues.set(key, catalogue);
  }
  return catalogue;
}

function splitRef(ref: string, path: string): [string, string] {
  const [screen, element, ...rest] = ref.split('.');
  if (!screen || !element || rest.length > 0) throw new ValidationError([{ path, message: `must be screen.element, not "${ref}"` }]);
  return [screen, element];
}

/** Renders the requested screen; an unknown package or screen id is a ValidationError. */
export async function renderSimScreen(request: SimScreenRequest = {}, options: ScreenshotOptions = {}): Promise<SimScreenPicture> {
  const catalogue = catalogueFor(request.apps);
  const now = request.now ?? DEFAULT_NOW;
  const state = bootState(now);
  const pkg = request.package ?? LAUNCHER_PACKAGE;
  if (pkg !== LAUNCHER_PACKAGE) {
    const installed = catalogue.preinstalled.find((a) => a.package === pkg);
    if (!installed) throw new ValidationError([{ path: 'package', message: `is not an app of the simulator: ${pkg}` }]);
    const app = catalogue.appFor(installed);
    const stack = request.stack ?? [app.screens[0].id];
    const unknown = stack.find((id) => !app.screens.some((s) => s.id === id));
    if (unknown !== undefined || stack.length === 0) throw new ValidationError([{ path: 'stack', message: `names no screen of ${pkg}: ${unknown ?? '(empty)'}` }]);
    state.foreground = pkg;
    state.tasks[pkg] = [...stack];
    state.recents = [pkg];
  }
  for (const [ref, value] of Object.entries(request.fields ?? {})) {
    const [screen, element] = splitRef(ref, 'fields');
    state.fields[fieldKey(pkg, screen, element)] = value;
  }
  if (request.focus !== undefined) {
    const [screen, element] = splitRef(request.focus, 'focus');
    state.focus = { package: pkg, screen, element };
  }
  const view = buildView({ state, installed: catalogue.preinstalled, catalogue, now });
  const shot = await renderer.render(view, options);
  return { ...shot, elements: uiTreeOf(view), texts: visibleTexts(view) };
}

/** The drawn text a person can see: text beneath a dialog's panel is drawn, then covered. */
function visibleTexts(view: SimView): DrawnText[] {
  const layers = viewLayers(view).map((l) => l.svg);
  const scrim = layers.indexOf(SCRIM);
  const panel = view.dialog?.panel;
  if (scrim < 0 || !panel) return drawnTexts(layers);
  const covered = (t: DrawnText) => t.bounds.left < panel.right && t.bounds.right > panel.left && t.bounds.top < panel.bottom && t.bounds.bottom > panel.top;
  return [...drawnTexts(layers.slice(0, scrim)).filter((t) => !covered(t)), ...drawnTexts(layers.slice(scrim))];
}
