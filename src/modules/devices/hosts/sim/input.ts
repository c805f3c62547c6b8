// Touch, text and keys on a simulated phone, applied to the state through the resolved
// view (so a tap hits exactly what the picture shows). Each function changes `world.state`
// in place; the caller stores it.
import type { AndroidKey } from '../keys.js';
import { SIM_SCREEN } from './app-schema.js';
import { countOpen } from './interrupts.js';
import { keyAt } from './keyboard.js';
import { clearFocus, forceStop, goBack, goHome, launchApp, showScreen, switchApp } from './navigation.js';
import { fieldKey, LAUNCHER_PACKAGE, screenKey } from './state.js';
import { maxScroll } from './screen-time.js';
import { buildView, foregroundApp, KEYBOARD_TOP, screenOf, type SimView, type SimWorld, type ViewElement } from './view.js';

/** Edge gestures, as on gesture navigation: from a side edge inwards is BACK, up from the bottom is HOME. */
const EDGE_PX = 60;
const GESTURE_MIN_PX = 200;
/** A swipe that moves less than this is a tap (Android's touch slop is about 8 dp). */
const TOUCH_SLOP_PX = 21;
/** A swipe quicker than this is a fling: the content moves 1.5× its distance (§15). */
const FLING_MS = 200;
const FLING_FACTOR = 1.5;

function contains(e: ViewElement, x: number, y: number): boolean {
  return x >= e.bounds.left && x < e.bounds.right && y >= e.bounds.top && y < e.bounds.bottom;
}

/** The topmost (last drawn) clickable element under the point. */
export function hitTest(view: SimView, x: number, y: number): ViewElement | null {
  for (let i = view.elements.length - 1; i >= 0; i--) {
    const e = view.elements[i];
    if ((e.clickable || e.editable) && contains(e, x, y)) return e;
  }
  return null;
}

/** Opens an installed app as a launcher tap or `open_app` does: start or bring back, then count the open (interrupts). */
export function openApp(world: SimWorld, pkg: string, screenId?: string): void {
  const installed = world.installed.find((a) => a.package === pkg);
  if (!installed) return;
  const app = world.catalogue.appFor(installed);
  launchApp(world.state, app, world.now, screenId);
  if (app.package !== LAUNCHER_PACKAGE) countOpen(world.state, app, world.now);
}

function follow(world: SimWorld, to: string): void {
  const { state } = world;
  if (to === 'back') return goBack(state);
  if (to.startsWith('package:')) return openApp(world, to.slice('package:'.length));
  showScreen(state, foregroundApp(world), to, world.now);
}

function tapKeyboard(world: SimWorld, x: number, y: number): void {
  const key = keyAt(x, y);
  if (!key) return;
  if (key.action.type === 'char') applyText(world, key.action.char);
  else if (key.action.type === 'delete') deleteChar(world);
  else if (key.action.type === 'enter') focusNextField(world, buildView(world));
}

export function applyTap(world: SimWorld, x: number, y: number): ViewElement | null {
  const view = buildView(world);
  const { state } = world;
  // Taps under the keyboard go to the keyboard, never to what it covers.
  if (view.keyboard && y >= KEYBOARD_TOP) {
    tapKeyboard(world, x, y);
    return null;
  }
  const hit = hitTest(view, x, y);
  // A tap outside a dialog's panel cancels the dialog, as Android's default does.
  if (!hit && view.dialog) {
    const p = view.dialog.panel;
    if (x < p.left || x >= p.right || y < p.top || y >= p.bottom) goBack(state);
    return null;
  }
  if (!hit) return null;
  if (hit.editable) {
    state.focus = { package: view.package, screen: view.screen.id, element: hit.element_id };
    state.keyboard = true;
  }
  if (hit.checked !== undefined && hit.field) state.fields[hit.field] = hit.checked ? 'off' : 'on';
  for (const [target, value] of Object.entries(hit.sets ?? {})) {
    const [screen, element] = target.split('.') as [string, string];
    state.fields[fieldKey(view.package, screen, element)] = value;
  }
  if (hit.to) follow(world, hit.to);
  return hit;
}

/** A vertical swipe inside the scrolling band moves the content by its distance, clamped at both ends. */
function scrollBy(world: SimWorld, view: SimView, y1: number, dy: number, durationMs: number): void {
  if (!view.scroll || y1 < view.scroll.top || y1 >= view.scroll.bottom) return;
  const clock = world.state.screens[screenKey(view.package, view.screen.id)];
  if (!clock) return;
  const screen = screenOf(foregroundApp(world), view.screen.id);
  const distance = durationMs < FLING_MS ? dy * FLING_FACTOR : dy;
  const current = Math.min(Math.max(0, clock.scroll), maxScroll(screen));
  clock.scroll = Math.round(Math.min(maxScroll(screen), Math.max(0, current - distance)));
}

export function applySwipe(world: SimWorld, x1: number, y1: number, x2: number, y2: number, durationMs = 300): void {
  const dx = x2 - x1;
  const dy = y2 - y1;
  if (Math.hypot(dx, dy) < TOUCH_SLOP_PX) {
    applyTap(world, x1, y1);
    return;
  }
  const fromSide = (x1 < EDGE_PX && dx > GESTURE_MIN_PX) || (x1 >= SIM_SCREEN.width - EDGE_PX && -dx > GESTURE_MIN_PX);
  if (fromSide && Math.abs(dx) > Math.abs(dy)) return applyBack(world);
  if (y1 >= SIM_SCREEN.height - EDGE_PX && -dy > GESTURE_MIN_PX) return goHome(world.state);
  const view = buildView(world);
  // A drag on the keyboard does not reach the screen beneath it.
  if (view.keyboard && y1 >= KEYBOARD_TOP) return;
  scrollBy(world, view, y1, dy, durationMs);
}

/** ENTER: the next editable element of the screen takes the focus (the keyboard stays up); after the last one, the keyboard goes. */
function focusNextField(world: SimWorld, view: SimView): void {
  const { state } = world;
  const at = view.fields.findIndex((e) => e.focused);
  const next = at >= 0 ? view.fields[at + 1] : undefined;
  if (next) {
    state.focus = { package: view.package, screen: view.screen.id, element: next.element_id };
    state.keyboard = true;
  } else clearFocus(state);
}

function focusedField(view: SimView): ViewElement | undefined {
  return view.fields.find((e) => e.focused);
}

function deleteChar(world: SimWorld): void {
  const { state } = world;
  const field = focusedField(buildView(world));
  if (field?.field) state.fields[field.field] = Array.from(state.fields[field.field] ?? '').slice(0, -1).join('');
}

/** Text goes into the focused field; with no field focused it goes nowhere, as on a phone. */
export function applyText(world: SimWorld, text: string): void {
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (i > 0) focusNextField(world, buildView(world));
    const field = focusedField(buildView(world));
    if (field?.field && line !== '') world.state.fields[field.field] = (world.state.fields[field.field] ?? '') + line;
  });
}

/** BACK first hides the keyboard (the field keeps its focus); the next BACK goes back. */
function applyBack(world: SimWorld): void {
  if (buildView(world).keyboard) {
    world.state.keyboard = false;
    return;
  }
  goBack(world.state);
}

export function applyKey(world: SimWorld, key: AndroidKey): void {
  const { state } = world;
  switch (key.name) {
    case 'BACK':
    case 'ESCAPE':
      return applyBack(world);
    case 'HOME':
      return goHome(state);
    case 'APP_SWITCH':
      return switchApp(state);
    case 'ENTER':
    case 'NUMPAD_ENTER':
    case 'TAB':
    case 'NAVIGATE_NEXT':
      return focusNextField(world, buildView(world));
    case 'DEL':
      return deleteChar(world);
    default:
    // Volume, media and the other keys change nothing a described screen shows.
  }
}

export function applyOpenApp(world: SimWorld, pkg: string, screenId?: string): void {
  openApp(world, pkg, screenId);
}

export function applyCloseApp(world: SimWorld, pkg: string): void {
  if (pkg !== LAUNCHER_PACKAGE) forceStop(world.state, pkg);
}
