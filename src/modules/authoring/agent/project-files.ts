// The session's project files (decisions.md §13): relative paths, at most 200 files and
// 1 MiB together. A path is checked here with the rules code sync applies to a zip, so a
// project the agent could write can always be installed; its entry is the one code sync picks.
import { chooseEntry, SnapshotRefusedError } from '../../code-sync/index.js';

export const PROJECT_MAX_FILES = 200;
export const PROJECT_MAX_BYTES = 1024 * 1024;
/** How code sync picks the entry file when none is named (decisions.md §5), in words for the model. */
export const ENTRY_RULE = 'a run starts src/app.py, else the main.py nearest the project root, else the first .py file in path order';

export interface ProjectFile {
  path: string;
  content: string;
}

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

/** Why a path cannot be a project file, or null when it can. */
export function pathProblem(path: string): string | null {
  if (path.length > 200) return 'is longer than 200 characters';
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') return 'must be relative, with no empty, "." or ".." parts (for example main.py or lib/steps.py)';
    if (!SEGMENT.test(segment)) return `has a part "${segment.slice(0, 40)}" outside letters, digits, "_", "-" and "." (not starting with "." or "-")`;
  }
  return null;
}

const sizeOf = (files: readonly ProjectFile[]) => files.reduce((sum, f) => sum + Buffer.byteLength(f.content, 'utf8'), 0);

/** The files with `path` written, or why not (the limits hold after the write). */
export function withFile(files: readonly ProjectFile[], path: string, content: string): { files: ProjectFile[] } | { problem: string } {
  const problem = pathProblem(path);
  if (problem) return { problem: `path ${problem}` };
  const next = files.filter((f) => f.path !== path);
  if (next.some((f) => f.path.startsWith(`${path}/`) || path.startsWith(`${f.path}/`))) return { problem: `path ${path} clashes with a folder or file of the same name` };
  next.push({ path, content });
  next.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (next.length > PROJECT_MAX_FILES) return { problem: `the project would have more than ${PROJECT_MAX_FILES} files` };
  if (sizeOf(next) > PROJECT_MAX_BYTES) return { problem: `the project would be larger than 1 MiB (${PROJECT_MAX_BYTES} bytes) together` };
  return { files: next };
}

/** The entry code sync would pick for these files (decisions.md §5); null when there is no .py file. */
export function entryOf(files: readonly ProjectFile[]): string | null {
  try {
    return chooseEntry(files.map((f) => f.path), undefined).path;
  } catch (error) {
    if (error instanceof SnapshotRefusedError) return null;
    throw error;
  }
}

export const listing = (files: readonly ProjectFile[]) => files.map((f) => ({ path: f.path, bytes: Buffer.byteLength(f.content, 'utf8') }));
