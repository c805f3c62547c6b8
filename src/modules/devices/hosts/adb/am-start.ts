// Starting activities with `am start` and reading its answer as Android writes it. The
// command goes as words (adbkit quotes each for the device's sh), so an inner class
// `.Outer$Inner` reaches the device whole. `am` prints its failures on lines of their own:
// `Error type 3` / `Error: Activity class {…} does not exist.`, `Error: Activity not started,
// unable to resolve Intent …`, or (Android 10+, and a non-exported activity on any version)
// `java.lang.SecurityException: Permission Denial: … not exported from uid …`, often after
// `Exception occurred while executing 'start':`. A name that merely contains "Error"
// (`Activity: pkg/.ErrorReportActivity`) is not a failure; a `Warning: Activity not started,
// its current task has been brought to the front` is a success.

/** MAIN + LAUNCHER with NEW_TASK | RESET_TASK_IF_NEEDED: the intent a launcher icon sends. */
export const LAUNCHER_INTENT = ['-a', 'android.intent.action.MAIN', '-c', 'android.intent.category.LAUNCHER', '-f', '0x10200000'] as const;

export function amStartCommand(component: string, options: { launcher?: boolean } = {}): string[] {
  return ['am', 'start', '-W', ...(options.launcher ? LAUNCHER_INTENT : []), '-n', component];
}

export type AmStartFailure = { kind: 'not_found' | 'not_exported' | 'refused'; reason: string };

/** What went wrong, or null when `am start` started (or brought forward) the activity. */
export function amStartFailure(output: string): AmStartFailure | null {
  const lines = output.split(/\r?\n/).map((l) => l.trim());
  const security = lines.find((l) => /^(java\.lang\.)?SecurityException:/.test(l));
  if (security) {
    const reason = security.replace(/^(java\.lang\.)?SecurityException:\s*/, '');
    return { kind: /not exported/.test(reason) ? 'not_exported' : 'refused', reason: reason.slice(0, 300) };
  }
  const error = lines.find((l) => /^Error:/.test(l));
  if (error) return { kind: /does not exist|unable to resolve|does not match any activities/.test(error) ? 'not_found' : 'refused', reason: error.replace(/^Error:\s*/, '').slice(0, 300) };
  const exception = lines.findIndex((l) => /^Exception occurred while executing/.test(l) || /^(java\.lang\.)?\w+(\.\w+)*Exception\b/.test(l));
  if (exception >= 0) return { kind: 'refused', reason: (lines[exception + 1] || lines[exception]).slice(0, 300) };
  if (lines.some((l) => /^Error type \d+/.test(l))) return { kind: 'refused', reason: lines.filter((l) => l !== '').pop()?.slice(0, 300) ?? 'no reason given' };
  return null;
}

/**
 * `cmd package resolve-activity --brief -a MAIN -c LAUNCHER <pkg>` (Android 7+) prints the
 * match, then the component (`pkg/.Main`) on a line of its own. Null when there is none, when
 * `cmd` is missing (older builds), or when several activities match (the system's chooser,
 * `android/com.android.internal.app.ResolverActivity`, is not the app).
 */
export function resolvedComponent(output: string, pkg: string): string | null {
  const line = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .reverse()
    .find((l) => /^[A-Za-z][\w.]*\/[\w.$]+$/.test(l));
  return line && line.startsWith(`${pkg}/`) ? line : null;
}

export function resolveLauncherCommand(pkg: string): string[] {
  return ['cmd', 'package', 'resolve-activity', '--brief', '-a', 'android.intent.action.MAIN', '-c', 'android.intent.category.LAUNCHER', pkg];
}

/**
 * The fallback for builds without `cmd`: monkey sends the launcher intent. `--pct-syskeys 0`
 * keeps it from aborting on devices without physical system keys (`** SYS_KEYS has no
 * physical keys`, exit 251, recent emulators and tablets); it launched only when it says
 * `Events injected: 1`.
 */
export function monkeyLaunchCommand(pkg: string): string[] {
  return ['monkey', '-p', pkg, '-c', 'android.intent.category.LAUNCHER', '--pct-syskeys', '0', '1'];
}

export function monkeyLaunched(output: string): boolean {
  return /^Events injected: [1-9]/m.test(output);
}
