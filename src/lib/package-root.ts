// The project's root folder, found from this file's place rather than counted in `../`: the
// built code runs both as compiled files (dist/lib/) and as a bundle (dist/bundle/), which
// sit at different depths.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function nearestPackageFolder(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${start}`);
  }
}

export const PACKAGE_ROOT = nearestPackageFolder(dirname(fileURLToPath(import.meta.url)));
