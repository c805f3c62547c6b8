// Entry names, checked before any byte of the entry is read: extracted anywhere, a path must
// stay inside the extraction folder and name one file only (decisions.md §5).
import { zipRefused } from './errors.js';

export interface EntryName {
  /** `/`-separated, no leading `./`, no trailing `/`; '' for the root folder itself. */
  path: string;
  isDirectory: boolean;
}

/** Control characters include NUL, which would also break the manifest's `path\0digest` lines. */
function hasControlCharacter(name: string): boolean {
  for (let i = 0; i < name.length; i += 1) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function checkEntryName(name: string): EntryName {
  const shown = JSON.stringify(name);
  if (hasControlCharacter(name)) throw zipRefused('unsafe_path', `has an entry whose name holds control characters (${shown})`);
  if (name.includes('\\')) throw zipRefused('unsafe_path', `has an entry whose name holds a backslash (${shown}); zip paths use /`);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw zipRefused('absolute_path', `has an entry with an absolute path (${shown})`);
  const isDirectory = name.endsWith('/');
  let path = isDirectory ? name.slice(0, -1) : name;
  while (path.startsWith('./')) path = path.slice(2);
  if (path === '.' || path === '') {
    if (isDirectory) return { path: '', isDirectory };
    throw zipRefused('unsafe_path', `has an entry with an empty name (${shown})`);
  }
  const segments = path.split('/');
  if (segments.includes('..')) throw zipRefused('parent_segment', `has an entry whose path climbs out with ".." (${shown})`);
  if (segments.some((s) => s === '' || s === '.')) throw zipRefused('unsafe_path', `has an entry with an empty or "." path segment (${shown})`);
  return { path, isDirectory };
}

/**
 * Remembers the tree so far; refuses a second entry for one path, and a path that is both a
 * file and a folder (`a` and `a/b`), which no extraction could honour.
 */
export class TreeIndex {
  private readonly files = new Set<string>();
  private readonly folders = new Set<string>();

  addFolder(path: string): void {
    if (path === '') return;
    if (this.files.has(path)) throw bothFileAndFolder(path);
    this.addAncestors(path);
    this.folders.add(path);
  }

  addFile(path: string): void {
    if (this.files.has(path)) throw zipRefused('duplicate_path', `has two entries for the path ${JSON.stringify(path)}`);
    if (this.folders.has(path)) throw bothFileAndFolder(path);
    this.addAncestors(path);
    this.files.add(path);
  }

  private addAncestors(path: string): void {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      const folder = path.slice(0, slash);
      if (this.files.has(folder)) throw bothFileAndFolder(folder);
      this.folders.add(folder);
    }
  }
}

const bothFileAndFolder = (path: string) => zipRefused('duplicate_path', `has ${JSON.stringify(path)} both as a file and as a folder`);
