// The architecture of src/ beyond its imports and tables (architecture.test.ts): module-level
// state is only the listed caches and signals, the tool server's tools call services and write
// no query, and no source file of src/ or web/src/ is over 15 KB.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readModuleState } from './helpers/module-state.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * State kept at module level in src/, which every app built in the process shares (issue 17
 * §2). None of it may be a registry of subscribers or handlers: what a module reacts to is
 * handed to it when it is built (build-modules.ts). Each entry says why it is process-wide.
 */
const PROCESS_STATE: Record<string, string> = {
  'src/db/wakeup.ts inProcess': "the SQLite wake-up signal: one per process by design, like PostgreSQL's channel per database (0003)",
  'src/db/wakeup.ts acrossThreads': "the same signal carried to the process's other threads (the runs thread, 0007)",
  'src/modules/scheduler/fire-times.ts wallClocks': 'a cache of Intl formatters by time zone',
  'src/modules/scheduler/fire-times.ts parsedCrons': 'a bounded cache of parsed cron expressions (a Cron answers from its argument alone)',
  'src/modules/devices/hosts/sim/catalogue.ts builtins': 'a memo of the built-in app descriptions, checked once per process (they ship with the code and never change)',
  'src/modules/runs/runner/sandbox/sandbox-status.ts known': "a memo of the machine's sandbox probe",
  'src/modules/runs/runner/run-user-lease.ts swept': 'a memo: each runs directory is swept once per process',
  'src/modules/runs/runner/uid-claims.ts ownName': "a memo of this process's claim name",
  'src/modules/devices/hosts/sim/offline-screen.ts catalogues': 'a cache of the simulated screens read from disk',
  'src/modules/devices/hosts/adb/unicode-ime.ts shipped': 'a memo of the shipped input-method APK',
  'src/modules/vision/opencv.ts loading': 'the one load of the OpenCV WebAssembly module',
  'src/modules/vision/match-pool.ts shared': "the process's one pool of matching threads, shared by the API and the runs thread (0025)",
  'src/modules/devices/catalogue/trace/frames.ts idsOfFiles': 'a memo of frame ids by encoded buffer (weak: gone with the buffer); an id is a function of the bytes',
  'src/modules/devices/hosts/sim/view.ts lastClock': "a memo of the status bar's clock text for the current minute",
};

describe('module-level state in src/', () => {
  const found = readModuleState(ROOT).map((state) => `${state.file} ${state.name}`);

  it('is only the listed caches and signals: no process-global registry of subscribers or handlers', () => {
    expect(found.filter((state) => !(state in PROCESS_STATE))).toEqual([]);
  });

  it('still holds every listed entry (remove one once it is gone)', () => {
    expect(Object.keys(PROCESS_STATE).filter((state) => !found.includes(state))).toEqual([]);
  });
});

describe('the tool server\'s tools (src/modules/mcp/tools/)', () => {
  it('hold no database handle and write no query: they call the owning module\'s services (issue 17 §3)', () => {
    const dir = join(ROOT, 'src/modules/mcp/tools');
    const files = readdirSync(dir).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    const offending = files.filter((name) => /from '[^']*(?:kysely|\/db\/)[^']*'|\.(?:selectFrom|insertInto|updateTable|deleteFrom)\(/.test(readFileSync(join(dir, name), 'utf8')));
    expect(offending).toEqual([]);
  });
});

/** Generated from openapi.json (`npm run console:types`), not written. */
const GENERATED = ['web/src/api/schema.d.ts'];

/** Every source file under `folder` (relative to the repository), but the generated ones. */
function sourceFilesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => `${folder}/${name.split('\\').join('/')}`)
    .filter((file) => !GENERATED.includes(file));
}

/** STYLE.md 13: a file holds one idea; past 15 KB it wants splitting (issue 34 point 3). */
const MAX_SOURCE_BYTES = 15 * 1024;

describe('the source files of src/ and web/src/', () => {
  it(`are each at most ${MAX_SOURCE_BYTES / 1024} KB`, () => {
    const files = [...sourceFilesUnder('src'), ...sourceFilesUnder('web/src')];
    expect(files.length).toBeGreaterThan(300);
    expect(files.filter((file) => statSync(join(ROOT, file)).size > MAX_SOURCE_BYTES)).toEqual([]);
  });
});
