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
}

export function bootState(now: number): SimState {
  return { booted_at: now, foreground: LAUNCHER_PACKAGE, tasks: {}, recents: [], fields: {}, focus: null };
}

export function fieldKey(pkg: string, screen: string, element: string): string {
  return `${pkg}/${screen}/${element}`;
}

/** The screen in front: the top of the foreground app's stack (the launcher has one screen). */
export function currentScreenId(state: SimState): string {
  const stack = state.tasks[state.foreground];
  return stack?.[stack.length - 1] ?? 'home';
}
