// What a simulated device remembers between calls, stored as JSON in `sim_devices` so any
// process can drive it. Runtime state (foreground app, screen stacks, fields, focus) starts
// fresh at every boot; the installed apps survive reboots, as on a phone.

/** The home screen is an app too: it is what shows when no other app is in front. */
export const LAUNCHER_PACKAGE = 'com.android.launcher3';
export const LAUNCHER_ACTIVITY = 'com.android.launcher3.Launcher';

export interface SimInstalledApp {
  package: string;
  label: string;
  version_name: string;
  version_code: number;
  /** `builtin`: shipped with the simulator; `apk`: installed from an uploaded APK. */
  source: 'builtin' | 'apk';
}

export interface SimFocus {
  package: string;
  screen: string;
  element: string;
}

export interface SimState {
  booted_at: number;
  /** The package in front; LAUNCHER_PACKAGE on the home screen. */
  foreground: string;
  /** Each started app's screen stack, bottom first; kept while the app is in the background. */
  tasks: Record<string, string[]>;
  /** Started apps, most recent first (the launcher is never listed). */
  recents: string[];
  /** Field contents (`package/screen/element` → text) and switch positions (`on`/`off`). */
  fields: Record<string, string>;
  focus: SimFocus | null;
  /** The soft keyboard is up (over the focused field's screen). */
  keyboard: boolean;
  /** Each screen in a task (`package/screen`): when it was entered, its loading time, its scroll offset. */
  screens: Record<string, SimScreenClock>;
  /** How often each app was opened since the device started (interrupts count on it). */
  opens: Record<string, number>;
  /** The `after_opens` interrupts that fired already (`package#index`): they fire once. */
  fired: string[];
  /** The random generator's state (rng.ts), seeded at boot; SIM_SEED fixes the seed. */
  rng: number;
}

/** A screen's own time (§15): everything a screen shows is computed from these at read time. */
export interface SimScreenClock {
  entered_at: number;
  /** Drawn from the screen's `loading_ms` range when it was entered; 0 without one. */
  loading_ms: number;
  /** How far its scrolling content is moved up, in device pixels. */
  scroll: number;
}

export function bootState(now: number, seed = 0): SimState {
  return { booted_at: now, foreground: LAUNCHER_PACKAGE, tasks: {}, recents: [], fields: {}, focus: null, keyboard: false, screens: {}, opens: {}, fired: [], rng: seed >>> 0 };
}

/** A state stored before §15's fields existed gets them (a device booted by an older version). */
export function withDefaults(state: SimState): SimState {
  return { ...state, keyboard: state.keyboard ?? false, screens: state.screens ?? {}, opens: state.opens ?? {}, fired: state.fired ?? [], rng: state.rng ?? state.booted_at >>> 0 };
}

export function screenKey(pkg: string, screen: string): string {
  return `${pkg}/${screen}`;
}

export function fieldKey(pkg: string, screen: string, element: string): string {
  return `${pkg}/${screen}/${element}`;
}

/** The screen in front: the top of the foreground app's stack (the launcher has one screen). */
export function currentScreenId(state: SimState): string {
  const stack = state.tasks[state.foreground];
  return stack?.[stack.length - 1] ?? 'home';
}
