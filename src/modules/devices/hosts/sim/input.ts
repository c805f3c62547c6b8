// Touch, text and keys on a simulated phone, applied to the state through the resolved
// view (so a tap hits exactly what the picture shows). Each function changes `world.state`
// in place; the caller stores it.
import type { AndroidKey } from '../keys.js';
import { SIM_SCREEN } from './app-schema.js';
import { forceStop, goBack, goHome, launchApp, showScreen, switchApp } from './navigation.js';
import { LAUNCHER_PACKAGE } from './state.js';
import { buildView, type SimView, type SimWorld, type ViewElement } from './view.js';

/** Edge gestures, as on gesture navigation: from a side edge inwards is BACK, up from the bottom is HOME. */
const EDGE_PX = 60;
const GESTURE_MIN_PX = 200;
/** A swipe that moves less than this is a tap (Android's touch slop is about 8 dp). */
const TOUCH_SLOP_PX = 21;

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

function follow(world: SimWorld, view: SimView, to: string): void {
  const { state } = world;
  if (to === 'back') return goBack(state);
  if (to.startsWith('package:')) {
    const target = world.installed.find((a) => a.package === to.slice('package:'.length));
    if (target) launchApp(state, world.catalogue.appFor(target));
    return;
  }
  showScreen(state, view.package, to);
}

export function applyTap(world: SimWorld, x: number, y: number): ViewElement | null {
  const view = buildView(world);
  const { state } = world;
  const hit = hitTest(view, x, y);
  // A tap outside a dialog's panel cancels the dialog, as Android's default does.
  if (!hit && view.dialog) {
    const p = view.dialog.panel;
    if (x < p.left || x >= p.right || y < p.top || y >= p.bottom) goBack(state);
    return null;
  }
  if (!hit) return null;
  if (hit.editable) state.focus = { package: view.package, screen: view.screen.id, element: hit.element_id };
  if (hit.checked !== undefined && hit.field) state.fields[hit.field] = hit.checked ? 'off' : 'on';
  if (hit.to) follow(world, view, hit.to);
  return hit;
}

export function applySwipe(world: SimWorld, x1: number, y1: number, x2: number, y2: number): void {
  const dx = x2 - x1;
  const dy = y2 - y1;
  if (Math.hypot(dx, dy) < TOUCH_SLOP_PX) {
    applyTap(world, x1, y1);
    return;
  }
  const fromSide = (x1 < EDGE_PX && dx > GESTURE_MIN_PX) || (x1 >= SIM_SCREEN.width - EDGE_PX && -dx > GESTURE_MIN_PX);
  if (fromSide && Math.abs(dx) > Math.abs(dy)) return goBack(world.state);
  if (y1 >= SIM_SCREEN.height - EDGE_PX && -dy > GESTURE_MIN_PX) return goHome(world.state);
  // Other swipes would scroll; the described screens fit the display, so nothing moves.
}

function focusNextField(world: SimWorld, view: SimView): void {
  const { state } = world;
  const fields = view.elements.filter((e) => e.editable);
  const at = fields.findIndex((e) => e.focused);
  const next = at >= 0 ? fields[at + 1] : undefined;
  state.focus = next ? { package: view.package, screen: view.screen.id, element: next.element_id } : null;
}

function focusedField(view: SimView): ViewElement | undefined {
  return view.elements.find((e) => e.editable && e.focused);
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

export function applyKey(world: SimWorld, key: AndroidKey): void {
  const { state } = world;
  switch (key.name) {
    case 'BACK':
    case 'ESCAPE':
      return goBack(state);
    case 'HOME':
      return goHome(state);
    case 'APP_SWITCH':
      return switchApp(state);
    case 'ENTER':
    case 'NUMPAD_ENTER':
    case 'TAB':
    case 'NAVIGATE_NEXT':
      return focusNextField(world, buildView(world));
    case 'DEL': {
      const field = focusedField(buildView(world));
      if (field?.field) state.fields[field.field] = Array.from(state.fields[field.field] ?? '').slice(0, -1).join('');
      return;
    }
    default:
    // Volume, media and the other keys change nothing a described screen shows.
  }
}

export function applyOpenApp(world: SimWorld, pkg: string, screenId?: string): void {
  const installed = world.installed.find((a) => a.package === pkg);
  if (!installed) return;
  launchApp(world.state, world.catalogue.appFor(installed), screenId);
}

export function applyCloseApp(world: SimWorld, pkg: string): void {
  if (pkg !== LAUNCHER_PACKAGE) forceStop(world.state, pkg);
}

