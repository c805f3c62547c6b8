// What the simulated screen shows right now, resolved from the state and the app
// description: the foreground screen's elements with typed text, switch positions and focus
// filled in, the screen beneath a dialog, and the status bar. Both the UI tree and the
// picture are made from this one value, so they cannot disagree.
import type { Bounds, UiElement } from '../types.js';
import type { SimApp, SimElement, SimScreen } from './app-schema.js';
import { SIM_SCREEN } from './app-schema.js';
import type { SimCatalogue } from './catalogue.js';
import { launcherApp } from './launcher.js';
import { resolveText } from './templates.js';
import { currentScreenId, fieldKey, LAUNCHER_PACKAGE, type SimInstalledApp, type SimState } from './state.js';

export interface ViewElement extends UiElement {
  focused: boolean;
  /** A tap's destination (see the app schema). */
  to?: string;
  /** Editable fields: the hint shown while empty, and whether the content is masked. */
  hint: string;
  password: boolean;
  /** Switches and check boxes: the position. */
  checked?: boolean;
  /** Editable fields and switches: where their value lives in `state.fields`. */
  field?: string;
}

export interface SimView {
  package: string;
  screen: Pick<SimScreen, 'id' | 'title' | 'activity'>;
  elements: ViewElement[];
  /** For a dialog: its panel and the (dimmed) screen beneath it. */
  dialog: { panel: Bounds; beneath: ViewElement[] } | null;
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

/** A dialog is a screen whose first element is a panel smaller than the screen that holds all the others. */
export function isDialogScreen(screen: SimScreen): boolean {
  const [panel, ...rest] = screen.elements;
  if (!panel || panel.clickable) return false;
  const p = panel.bounds;
  const area = (p.right - p.left) * (p.bottom - p.top);
  if (area > SIM_SCREEN.width * SIM_SCREEN.height * 0.7) return false;
  return rest.every((e) => e.bounds.left >= p.left && e.bounds.top >= p.top && e.bounds.right <= p.right && e.bounds.bottom <= p.bottom);
}

function clockText(now: number): { time: string; date: string } {
  const at = new Date(now);
  const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  const date = at.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long' });
  return { time, date };
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
  const base = { element_id: e.id, class: e.class, resource_id: e.resource_id, content_desc: e.content_desc, bounds: { ...e.bounds }, clickable: e.clickable, editable: e.editable };
  const focused = state.focus?.package === pkg && state.focus.screen === screenId && state.focus.element === e.id;
  if (e.editable) {
    const value = state.fields[key] ?? '';
    const password = /password$/i.test(e.resource_id);
    return { ...base, text: password ? '•'.repeat([...value].length) : value, focused, hint: resolveText(e.text, pkg, state.fields), password, field: key, ...(e.to ? { to: e.to } : {}) };
  }
  if (isToggle(e)) {
    const checked = (state.fields[key] ?? (e.text.toUpperCase() === 'ON' ? 'on' : 'off')) === 'on';
    return { ...base, text: checked ? 'ON' : 'OFF', focused, hint: '', password: false, checked, field: key, ...(e.to ? { to: e.to } : {}) };
  }
  return { ...base, text: resolveText(e.text, pkg, state.fields), focused, hint: '', password: false, ...(e.to ? { to: e.to } : {}) };
}

function screenOf(app: SimApp, id: string): SimScreen {
  return app.screens.find((s) => s.id === id) ?? app.screens[0];
}

export function buildView(world: SimWorld): SimView {
  const { state } = world;
  const app = foregroundApp(world);
  const screen = screenOf(app, currentScreenId(state));
  const elements = screen.elements.map((e) => resolveElement(app.package, screen.id, e, state));
  let dialog: SimView['dialog'] = null;
  if (isDialogScreen(screen)) {
    const stack = state.tasks[app.package] ?? [];
    const belowId = stack[stack.length - 2];
    const below = belowId ? screenOf(app, belowId) : undefined;
    const beneath = below && !isDialogScreen(below) ? below.elements.map((e) => resolveElement(app.package, below.id, e, state)) : [];
    dialog = { panel: { ...screen.elements[0].bounds }, beneath };
  }
  const uptimeMinutes = Math.max(0, Math.floor((world.now - state.booted_at) / 60_000));
  return {
    package: app.package,
    screen: { id: screen.id, title: screen.title, activity: screen.activity },
    elements,
    dialog,
    statusBar: { time: clockText(world.now).time, battery: Math.max(15, 100 - Math.floor(uptimeMinutes / 6)) },
  };
}

/** The UI tree a caller sees: the front window's elements, without the picture-only fields. */
export function uiTreeOf(view: SimView): UiElement[] {
  return view.elements.map((e) => ({
    element_id: e.element_id,
    class: e.class,
    text: e.text,
    resource_id: e.resource_id,
    content_desc: e.content_desc,
    bounds: { ...e.bounds },
    clickable: e.clickable,
    editable: e.editable,
    focused: e.focused,
  }));
}
