// The entry file (decisions.md §5): the one given, which must be in the tree; when none is
// given, `src/app.py`, else the `main.py` closest to the root, else the first `.py` file.
import { SnapshotRefusedError } from './errors.js';
import { comparePaths } from './hash.js';

const DEFAULT_ENTRY = 'src/app.py';

export interface EntryChoice {
  path: string;
  /** True when the server picked it (no `entry_path` was given). */
  defaulted: boolean;
}

const depth = (path: string) => path.split('/').length;

export function chooseEntry(paths: readonly string[], requested: string | undefined): EntryChoice {
  if (requested) {
    // Written like the zip's own names may be: a leading `./` means the same file.
    const path = requested.replace(/^(\.\/)+/, '');
    if (!paths.includes(path)) throw new SnapshotRefusedError('entry_not_found', 'entry_path', `names ${JSON.stringify(requested)}, which is not a file in the zip`);
    return { path, defaulted: false };
  }
  if (paths.includes(DEFAULT_ENTRY)) return { path: DEFAULT_ENTRY, defaulted: true };
  const sorted = [...paths].sort(comparePaths);
  // "Shortest path" is the fewest folders deep; among equals, the first in path order.
  const mains = sorted.filter((p) => p === 'main.py' || p.endsWith('/main.py'));
  const main = mains.reduce<string | undefined>((best, p) => (best === undefined || depth(p) < depth(best) ? p : best), undefined);
  const chosen = main ?? sorted.find((p) => p.endsWith('.py'));
  if (!chosen) throw new SnapshotRefusedError('no_python_file', 'zip_file_base64', 'holds no .py file, so there is no entry file to run');
  return { path: chosen, defaulted: true };
}
