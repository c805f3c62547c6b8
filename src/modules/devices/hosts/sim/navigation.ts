// How a simulated phone moves between screens and apps, following Android's task model:
// each app keeps its own back stack while in the background; BACK pops it (at an app's
// first screen it returns home but keeps the task); HOME shows the launcher; APP_SWITCH
// goes to the previous app; a force-stop forgets the task and its unsaved fields.
import type { SimApp } from './app-schema.js';
import { LAUNCHER_PACKAGE, type SimState } from './state.js';

function bringToFront(state: SimState, pkg: string): void {
  state.foreground = pkg;
  state.focus = null;
  if (pkg !== LAUNCHER_PACKAGE) state.recents = [pkg, ...state.recents.filter((p) => p !== pkg)];
}

export function goHome(state: SimState): void {
  bringToFront(state, LAUNCHER_PACKAGE);
}

/** Starts the app, or brings its task back; with `screenId`, that screen comes to the top. */
export function launchApp(state: SimState, app: SimApp, screenId?: string): void {
  if (app.package === LAUNCHER_PACKAGE) return goHome(state);
  const stack = state.tasks[app.package] ?? [app.screens[0].id];
  state.tasks[app.package] = stack;
  bringToFront(state, app.package);
  if (screenId !== undefined) showScreen(state, app.package, screenId);
}

/** A screen already in the stack is returned to (the ones above it close); any other is pushed. */
export function showScreen(state: SimState, pkg: string, screenId: string): void {
  const stack = state.tasks[pkg] ?? [];
  const at = stack.indexOf(screenId);
  state.tasks[pkg] = at >= 0 ? stack.slice(0, at + 1) : [...stack, screenId];
  state.focus = null;
}

export function goBack(state: SimState): void {
  const pkg = state.foreground;
  if (pkg === LAUNCHER_PACKAGE) return;
  const stack = state.tasks[pkg] ?? [];
  state.focus = null;
  if (stack.length > 1) {
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
  delete state.tasks[pkg];
  state.recents = state.recents.filter((p) => p !== pkg);
  for (const key of Object.keys(state.fields)) if (key.startsWith(`${pkg}/`)) delete state.fields[key];
  if (state.focus?.package === pkg) state.focus = null;
  if (state.foreground === pkg) state.foreground = LAUNCHER_PACKAGE;
}

/** The screen that an activity name (full, `.Relative` or `pkg/.Relative`) starts, if any. */
export function screenForActivity(app: SimApp, activity: string): string | undefined {
  const name = activity.includes('/') ? activity.slice(activity.indexOf('/') + 1) : activity;
  const full = name.startsWith('.') ? `${app.package}${name}` : name;
  return app.screens.find((s) => s.activity === full)?.id;
}
