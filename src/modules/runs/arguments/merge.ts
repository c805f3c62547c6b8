// A run's arguments (decisions.md §10): the device's profile when it belongs to the run's
// macro, else the macro's Default; the run's own `args` laid over them key by key. When the
// run gives `args`, the stored `__cli_args__` (a command line rendered for the stored
// values) would contradict them, so it is dropped unless the run's `args` carry their own.

export type RunArgs = Record<string, unknown>;

/** The pre-rendered command line a profile may hold beside its values. */
export const CLI_ARGS_KEY = '__cli_args__';

/** Keys in stored order: the profile's first, then keys only `overrides` adds. */
export function mergeRunArgs(profile: RunArgs, overrides?: RunArgs): RunArgs {
  const merged: RunArgs = { ...profile };
  if (overrides === undefined) return merged;
  if (!Object.hasOwn(overrides, CLI_ARGS_KEY)) delete merged[CLI_ARGS_KEY];
  // Assigning to an existing key keeps its place, so the profile's order survives.
  for (const [name, value] of Object.entries(overrides)) merged[name] = value;
  return merged;
}
