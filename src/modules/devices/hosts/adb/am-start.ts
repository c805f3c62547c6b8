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
