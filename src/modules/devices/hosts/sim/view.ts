// What the simulated screen shows right now, resolved from the state and the app
// description: the foreground screen's elements with typed text, switch positions and focus
// filled in, at the screen's moment (loading, appearing and hiding elements, the scrolled
// content; screen-time.ts), the screen beneath a dialog, the keyboard and the status bar.
// Both the UI tree and the picture are made from this one value, so they cannot disagree.
import type { Bounds, UiElement } from '../types.js';
import type { SimApp, SimElement, SimScreen } from './app-schema.js';
import { isDialogScreen, SIM_SCREEN, scrollsWithContent } from './app-schema.js';
import type { SimCatalogue } from './catalogue.js';
import { launcherApp } from './launcher.js';
import { momentOf, PROGRESS_BOUNDS, PROGRESS_CLASS, PROGRESS_RESOURCE_ID, placeInBand, SCROLL_CONTAINER_CLASS, SCROLL_CONTAINER_ID, isShown } from './screen-time.js';
import { resolveText } from './templates.js';
import { currentScreenId, fieldKey, LAUNCHER_PACKAGE, type SimInstalledApp, type SimState, screenKey } from './state.js';

export { isDialogScreen } from './app-schema.js';

/** The soft keyboard covers the bottom 900 px of the screen (§15). */
export const KEYBOARD_TOP = SIM_SCREEN.height - 900;

export interface ViewElement extends UiElement {
  focused: boolean;
  /** A tap's destination (see the app schema). */
  to?: string;
  /** Values a tap writes for other screens' placeholders (see the app schema). */
  sets?: Record<string, string>;
  /** Editable fields: the hint shown while empty, and whether the content is masked. */
  hint: string;
  password: boolean;
  /** Switches and check boxes: the position. */
  checked?: boolean;
  /** Editable fields and switches: where their value lives in `state.fields`. */
  field?: string;
  /** Scrolling content: where it is drawn (`bounds` is the visible part) and the band that clips it. */
  clip?: { drawn: Bounds; top: number; bottom: number };
  /** The progress indicator: the step (0–11) of its turn, so the live view shows it spinning. */
  spin?: number;
}

export interface SimView {
  package: string;
  screen: Pick<SimScreen, 'id' | 'title' | 'activity'>;
  elements: ViewElement[];
  /** The front screen's editable elements in order, under the keyboard too (ENTER walks them). */
  fields: ViewElement[];
  /** For a dialog: its panel and the (dimmed) screen beneath it. */
  dialog: { panel: Bounds; beneath: ViewElement[] } | null;
  /** The front screen's scrolling band, when it has one and has loaded. */
  scroll: { top: number; bottom: number } | null;
  keyboard: boolean;
  statusBar: { time: string; battery: number };
}

export interface SimWorld {
  state: SimState;
  installed: SimInstalledApp[];
  catalogue: SimCatalogue;
  now: number;
}

const TOGGLE_CLASS = /(Switch|CheckBox|ToggleButton|RadioButton)$/;

export function isToggle(element: Pick<SimElement, 'class'>): boolean {
  return TOGGLE_CLASS.test(element.class);
}

// Intl formatting costs tens of microseconds a call and every picture and UI tree asks for the
// clock: one formatter, and the last minute's answer kept (the text changes once a minute).
const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long' });
let lastClock: { minute: number; text: { time: string; date: string } } | null = null;

function clockText(now: number): { time: string; date: string } {
  const minute = Math.floor(now / 60_000);
  if (lastClock?.minute === minute) return lastClock.text;
  const at = new Date(now);
  const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  const text = { time, date: DATE_FORMAT.format(at) };
  lastClock = { minute, text };
  return text;
}

/** The app in front (the launcher, a described app, or a bare APK's placeholder). */
export function foregroundApp(world: SimWorld): SimApp {
  const { state, installed, catalogue } = world;
  if (state.foreground === LAUNCHER_PACKAGE) return launcherApp(installed, clockText(world.now));
  const app = installed.find((a) => a.package === state.foreground);
  // The app was uninstalled under a running task: show home rather than fail.
  return app ? catalogue.appFor(app) : launcherApp(installed, clockText(world.now));
}

function resolveElement(pkg: string, screenId: string, e: SimElement, state: SimState): ViewElement {
  const key = fieldKey(pkg, screenId, e.id);
  const base = { element_id: e.id, class: e.class, resource_id: e.resource_id, content_desc: resolveText(e.content_desc, pkg, state.fields), bounds: { ...e.bounds }, clickable: e.clickable, editable: e.editable, scrollable: false };
  const focused = state.focus?.package === pkg && state.focus.screen === screenId && state.focus.element === e.id;
  if (e.editable) {
    const value = state.fields[key] ?? '';
    const password = /password$/i.test(e.resource_id);
    return withTap({ ...base, text: password ? '•'.repeat([...value].length) : value, focused, hint: resolveText(e.text, pkg, state.fields), password, field: key }, e);
  }
  if (isToggle(e)) {
    const checked = (state.fields[key] ?? (e.text.toUpperCase() === 'ON' ? 'on' : 'off')) === 'on';
    return withTap({ ...base, text: checked ? 'ON' : 'OFF', focused, hint: '', password: false, checked, field: key }, e);
  }
  return withTap({ ...base, text: resolveText(e.text, pkg, state.fields), focused, hint: '', password: false }, e);
}

/** What a tap on the element does beyond hitting it (its `to`, its `sets`), added only where the description has it: this runs for every element of every view. */
function withTap(out: ViewElement, e: SimElement): ViewElement {
  if (e.to) out.to = e.to;
  if (e.sets) out.sets = e.sets;
  return out;
}

function plain(id: string, cls: string, resourceId: string, bounds: Bounds, extra: Partial<ViewElement> = {}): ViewElement {
  return { element_id: id, class: cls, text: '', resource_id: resourceId, content_desc: '', bounds: { ...bounds }, clickable: false, editable: false, scrollable: false, focused: false, hint: '', password: false, ...extra };
}

export function screenOf(app: SimApp, id: string): SimScreen {
  return app.screens.find((s) => s.id === id) ?? app.screens[0];
}

/** One screen's elements at this moment: the spinner while it loads; else what is shown, scrolled and clipped. */
export function screenElements(app: SimApp, screen: SimScreen, state: SimState, now: number): { elements: ViewElement[]; loading: boolean } {
  const moment = momentOf(screen, state.screens[screenKey(app.package, screen.id)], now);
  if (moment.loading) {
    return { loading: true, elements: [plain('progress', PROGRESS_CLASS, PROGRESS_RESOURCE_ID, PROGRESS_BOUNDS, { spin: Math.floor(moment.elapsed / 100) % 12 })] };
  }
  const elements: ViewElement[] = [];
  const band = screen.scroll;
  let containerAdded = false;
  for (const e of screen.elements) {
    if (!isShown(e, moment.since)) continue;
    const resolved = resolveElement(app.package, screen.id, e, state);
    if (!band || !scrollsWithContent(screen, e)) {
      elements.push(resolved);
      continue;
    }
    if (!containerAdded) {
      elements.push(plain(SCROLL_CONTAINER_ID, SCROLL_CONTAINER_CLASS, `${app.package}:id/${SCROLL_CONTAINER_ID}`, { left: 0, top: band.top, right: SIM_SCREEN.width, bottom: band.bottom }, { scrollable: true }));
      containerAdded = true;
    }
    const placed = placeInBand(e.bounds, band, moment.scroll);
    if (placed) elements.push({ ...resolved, bounds: placed.visible, clip: { drawn: placed.drawn, top: band.top, bottom: band.bottom } });
  }
  return { elements, loading: false };
}

const centreY = (e: ViewElement) => (e.bounds.top + e.bounds.bottom) / 2;

export function buildView(world: SimWorld): SimView {
  const { state, now } = world;
  const app = foregroundApp(world);
  const screen = screenOf(app, currentScreenId(state));
  const front = screenElements(app, screen, state, now);
  let dialog: SimView['dialog'] = null;
  if (isDialogScreen(screen)) {
    const stack = state.tasks[app.package] ?? [];
    const belowId = stack[stack.length - 2];
    const below = belowId ? screenOf(app, belowId) : undefined;
    const beneath = below && !isDialogScreen(below) ? screenElements(app, below, state, now).elements : [];
    dialog = { panel: { ...screen.elements[0].bounds }, beneath };
  }
  const focus = state.focus;
  const keyboard = state.keyboard && !front.loading && focus?.package === app.package && focus.screen === screen.id;
  // The window is resized above the keyboard (adjustResize): what lies under it leaves the tree.
  const elements = keyboard ? front.elements.filter((e) => centreY(e) < KEYBOARD_TOP) : front.elements;
  const uptimeMinutes = Math.max(0, Math.floor((now - state.booted_at) / 60_000));
  return {
    package: app.package,
    screen: { id: screen.id, title: screen.title, activity: screen.activity },
    elements,
    fields: front.elements.filter((e) => e.editable),
    dialog,
    scroll: screen.scroll && !front.loading ? { ...screen.scroll } : null,
    keyboard,
    statusBar: { time: clockText(now).time, battery: Math.max(15, 100 - Math.floor(uptimeMinutes / 6)) },
  };
}

/** The UI tree a caller sees: the front window's elements, without the picture-only fields. */
export function uiTreeOf(view: SimView): UiElement[] {
  return view.elements.map(toUiElement);
}

export function toUiElement(e: ViewElement): UiElement {
  return {
    element_id: e.element_id,
    class: e.class,
    text: e.text,
    resource_id: e.resource_id,
    content_desc: e.content_desc,
    bounds: { ...e.bounds },
    clickable: e.clickable,
    editable: e.editable,
    scrollable: e.scrollable,
    focused: e.focused,
  };
}
