// The simulated screen at one moment, not yet drawn. A tracer wants a picture before every
// input (decisions.md §17), and on `sim` the screen is a function of the device's state and
// the time, so the state an input began from is that picture: drawing it can wait until
// someone looks, and a screen seen before needs no drawing at all. `key` names the picture
// (equal keys, equal pixels) from the few things the view is built from.
import type { Screenshot, ScreenshotOptions, UndrawnScreen } from '../types.js';
import { isDialogScreen, type SimScreen } from './app-schema.js';
import type { ScreenRenderer } from './render/raster.js';
import { isShown, momentOf } from './screen-time.js';
import { currentScreenId, LAUNCHER_PACKAGE, screenKey, type SimInstalledApp, type SimState } from './state.js';
import { buildView, foregroundApp, screenOf, type SimWorld } from './view.js';

/** What of one screen moves with time, at this moment: the spinner's step while it loads, else its scroll offset and which elements are shown. */
function momentKey(screen: SimScreen, pkg: string, state: SimState, now: number): unknown[] {
  const moment = momentOf(screen, state.screens[screenKey(pkg, screen.id)], now);
  if (moment.loading) return [screen.id, 'loading', Math.floor(moment.elapsed / 100) % 12];
  let shown = '';
  for (const e of screen.elements) if (e.appear_after_ms !== undefined || e.hide_after_ms !== undefined) shown += isShown(e, moment.since) ? '1' : '0';
  return [screen.id, moment.scroll, shown];
}

/**
 * The key of the world's picture: what the view is built from (screen-time.ts, view.ts) and
 * nothing else. The front screen and the one beneath a dialog at this moment, the fields,
 * focus and keyboard, the installed apps on the home screen, the minute (the status bar's
 * clock, the launcher's date) and whole minutes of uptime (the battery). When each screen
 * was entered, the random generator and the open counts are left out, so returning to a
 * screen finds the picture it had.
 */
export function pictureKey(world: SimWorld): string {
  const { state, now } = world;
  const app = foregroundApp(world);
  const screen = screenOf(app, currentScreenId(state));
  let below: unknown[] | null = null;
  if (isDialogScreen(screen)) {
    const stack = state.tasks[app.package] ?? [];
    const belowId = stack[stack.length - 2];
    const beneath = belowId ? screenOf(app, belowId) : undefined;
    if (beneath && !isDialogScreen(beneath)) below = momentKey(beneath, app.package, state, now);
  }
  const uptimeMinutes = Math.max(0, Math.floor((now - state.booted_at) / 60_000));
  const home = app.package === LAUNCHER_PACKAGE ? world.installed : null;
  return JSON.stringify([Math.floor(now / 60_000), uptimeMinutes, app.package, momentKey(screen, app.package, state, now), below, state.fields, state.focus, state.keyboard, home]);
}

/**
 * The world's screen, drawn on demand. `stored` is the state and installed apps as the store
 * keeps them (`[state, installed]`), for a world an input is about to change; without it the
 * world itself is kept, so it must be one nobody changes (a record read for this look).
 */
export function undrawnScreen(world: SimWorld, renderer: ScreenRenderer, stored?: string): UndrawnScreen {
  const { catalogue, now } = world;
  return {
    key: pictureKey(world),
    draw(options: ScreenshotOptions): Promise<Screenshot> {
      if (stored === undefined) return renderer.render(buildView(world), options);
      const [state, installed] = JSON.parse(stored) as [SimState, SimInstalledApp[]];
      return renderer.render(buildView({ state, installed, catalogue, now }), options);
    },
  };
}
