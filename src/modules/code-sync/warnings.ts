// What an accepted upload tells its sender (decisions.md §5): `{code, message, path?, line?}`.
import type { EntryChoice } from './entry.js';
import { comparePaths } from './hash.js';
import type { SnapshotWarning } from './schemas.js';
import type { TreeFile } from './tree.js';

export type Warning = SnapshotWarning;

export interface ImageUse {
  id: string;
  path: string;
  line: number;
}

/** Each referenced image id once, where it first appears: files in path order, then by position. */
export function firstImageUses(files: readonly TreeFile[]): ImageUse[] {
  const seen = new Set<string>();
  const uses: ImageUse[] = [];
  for (const file of [...files].sort((a, b) => comparePaths(a.path, b.path))) {
    for (const ref of file.imageRefs ?? []) {
      if (seen.has(ref.id)) continue;
      seen.add(ref.id);
      uses.push({ id: ref.id, path: file.path, line: ref.line });
    }
  }
  return uses;
}

export interface WarningInput {
  files: readonly TreeFile[];
  entry: EntryChoice;
  imageUses: readonly ImageUse[];
  /** The referenced ids that are in the owner's image library. */
  ownedImages: ReadonlySet<string>;
  largeFileBytes: number;
}

/** In a stable order: the entry, then large files by path, then unknown images as they appear. */
export function snapshotWarnings({ files, entry, imageUses, ownedImages, largeFileBytes }: WarningInput): Warning[] {
  const warnings: Warning[] = [];
  if (entry.defaulted) {
    warnings.push({
      code: 'entry_defaulted',
      message: `No entry_path was given, so the server chose ${entry.path} (src/app.py, else the main.py closest to the root, else the first .py file).`,
      path: entry.path,
    });
  }
  for (const file of [...files].sort((a, b) => comparePaths(a.path, b.path))) {
    if (file.size > largeFileBytes) {
      warnings.push({ code: 'large_file', message: `This file is ${file.size} bytes, over ${largeFileBytes} (1 MiB); large files slow every sync and run.`, path: file.path });
    }
  }
  for (const use of imageUses) {
    if (!ownedImages.has(use.id)) {
      warnings.push({ code: 'unknown_image', message: `${use.id} is not in your image library; add it there before the macro runs.`, path: use.path, line: use.line });
    }
  }
  return warnings;
}
