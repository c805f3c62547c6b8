// How a simulated phone moves between screens and apps, following Android's task model:
// each app keeps its own back stack while in the background; BACK pops it (at an app's
// first screen it returns home but keeps the task); HOME shows the launcher; APP_SWITCH
// goes to the previous app; a force-stop forgets the task and its unsaved fields.
// A screen is *entered* (§15) when a tap's `to` or an activity start brings it up, or when
// its app starts afresh: its clock starts then (loading, appearing elements, scroll at the
// top). Coming back to it (BACK, reopening a running app) leaves its clock as it was.
import type { SimApp } from './app-schema.js';
import { drawInt } from './rng.js';
import { LAUNCHER_PACKAGE, type SimState, screenKey } from './state.js';

function bringToFront(state: SimState, pkg: string): void {
  state.foreground = pkg;
  clearFocus(state);
  if (pkg !== LAUNCHER_PACKAGE) state.recents = [pkg, ...state.recents.filter((p) => p !== pkg)];
}

export function clearFocus(state: SimState): void {
  state.focus = null;
  state.keyboard = false;
}

/** Starts the screen's clock: now, a loading time drawn from its range, the scroll at the top. */
export function enterScreen(state: SimState, app: SimApp, screenId: string, now: number): void {
  const loading = app.screens.find((s) => s.id === screenId)?.loading_ms;
  state.screens[screenKey(app.package, screenId)] = { entered_at: now, loading_ms: loading ? drawInt(state, loading.min, loading.max) : 0, scroll: 0 };
}

function forgetScreens(state: SimState, pkg: string, screenIds: string[]): void {
  for (const id of screenIds) delete state.screens[screenKey(pkg, id)];
}

export function goHome(state: SimState): void {
  bringToFront(state, LAUNCHER_PACKAGE);
}

/** Starts the app (entering its first screen), or brings its task back as it was; with `screenId`, that screen is entered on top. */
export function launchApp(state: SimState, app: SimApp, now: number, screenId?: string): void {
  if (app.package === LAUNCHER_PACKAGE) return goHome(state);
  if (state.tasks[app.package] === undefined) {
    state.tasks[app.package] = [app.screens[0].id];
    enterScreen(state, app, app.screens[0].id, now);
  }
  bringToFront(state, app.package);
  if (screenId !== undefined) showScreen(state, app, screenId, now);
}

/** Enters the screen: one already in the stack comes back to the top (the ones above it close), any other is pushed. */
export function showScreen(state: SimState, app: SimApp, screenId: string, now: number): void {
  const stack = state.tasks[app.package] ?? [];
  const at = stack.indexOf(screenId);
  if (at >= 0) forgetScreens(state, app.package, stack.slice(at + 1));
  state.tasks[app.package] = at >= 0 ? stack.slice(0, at + 1) : [...stack, screenId];
  enterScreen(state, app, screenId, now);
  clearFocus(state);
}

export function goBack(state: SimState): void {
  const pkg = state.foreground;
  if (pkg === LAUNCHER_PACKAGE) return;
  const stack = state.tasks[pkg] ?? [];
  clearFocus(state);
  if (stack.length > 1) {
    forgetScreens(state, pkg, stack.slice(-1));
    state.tasks[pkg] = stack.slice(0, -1);
    return;
  }
  goHome(state);
}

/** Like a double press of the recents key: the most recent other app, or home when there is none. */
export function switchApp(state: SimState): void {
  const previous = state.recents.find((p) => p !== state.foreground && state.tasks[p] !== undefined);
  if (previous === undefined) return goHome(state);
  bringToFront(state, previous);
}

export function forceStop(state: SimState, pkg: string): void {
  forgetScreens(state, pkg, state.tasks[pkg] ?? []);
  delete state.tasks[pkg];
  state.recents = state.recents.filter((p) => p !== pkg);
  for (const key of Object.keys(state.fields)) if (key.startsWith(`${pkg}/`)) delete state.fields[key];
  if (state.focus?.package === pkg) clearFocus(state);
  if (state.foreground === pkg) state.foreground = LAUNCHER_PACKAGE;
}

/** The screen that an activity name (full, `.Relative` or `pkg/.Relative`) starts, if any. */
export function screenForActivity(app: SimApp, activity: string): string | undefined {
  const name = activity.includes('/') ? activity.slice(activity.indexOf('/') + 1) : activity;
  const full = name.startsWith('.') ? `${app.package}${name}` : name;
  return app.screens.find((s) => s.activity === full)?.id;
}
