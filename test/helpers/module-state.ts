// Reads the state a file of src/ keeps at module level, for the "no process-global registry"
// rule of test/architecture.test.ts (issue 17 §2): a top-level `let`, or a top-level constant
// holding an empty collection or emitter that code fills later (`new Map()`, `new Set()`,
// `[]`, `new EventEmitter()`, …). Collections built from a literal list are constants and
// are not reported.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface ModuleState {
  /** Relative to the repository, like src/modules/events/emit.ts. */
  file: string;
  name: string;
}

const MUTABLE_BINDING = /^(?:export\s+)?(?:let|var)\s+(\w+)/gm;
const EMPTY_HOLDER = /^(?:export\s+)?const\s+(\w+)\b[^=\n]*=\s*(?:new\s+(?:Map|Set|WeakMap|WeakSet|EventEmitter|BroadcastChannel|Listeners|Array)\s*(?:<[^()\n]*>)?\(\s*(?:['"`][^'"`]*['"`])?\s*\)|\[\s*\]|\{\s*\})\s*;/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module-level mutable binding or empty collection in the given source text. */
export function moduleStateIn(file: string, text: string): ModuleState[] {
  return [...text.matchAll(MUTABLE_BINDING), ...text.matchAll(EMPTY_HOLDER)].map((match) => ({ file, name: match[1] }));
}

/** Every module-level mutable binding or empty collection in src/. */
export function readModuleState(root: string): ModuleState[] {
  return sourceFiles(join(root, 'src')).flatMap((path) => moduleStateIn(relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8')));
}
