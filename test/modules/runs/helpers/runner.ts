// Shortcuts for runner tests: a zip of Python files, a log sink that keeps every batch in
// memory, and runner settings with a fresh RUNS_DIR.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RUN_PATH } from '../../../../src/config.js';
import { currentIdentity, runAsFor, runUserFor } from '../../../../src/lib/run-user.js';
import type { LogSink } from '../../../../src/modules/runs/logs/log-sink.js';
import type { PythonRunSettings } from '../../../../src/modules/runs/runner/python-run.js';
import { SDK_DIR } from '../../../../src/modules/runs/runner/sdk-dir.js';
import { buildZip } from '../../../helpers/zip.js';

export function zipOf(files: Record<string, string | Buffer>): Buffer {
  return buildZip(Object.entries(files).map(([name, data]) => ({ name, data })));
}

const made: string[] = [];

/** A fresh RUNS_DIR (0700, ours); removeTempDirs() removes them all. */
export function tempDir(prefix = 'svc-runs-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** For each file's afterAll: the folders tempDir made, with anything left in them. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** RUN_AS_USER and RUN_UIDS unset, as start-up resolves them: a uid of its own per run when the tests run as root (CI), else null (runs keep our user). */
export const TEST_RUN_AS = runAsFor(undefined, undefined, currentIdentity());
/** RUN_AS_USER=nobody when the tests run as root (every run that one user), else null. */
export const TEST_RUN_USER = currentIdentity().uid === 0 ? runUserFor('nobody', currentIdentity()) : null;

export function runnerSettings(overrides: Partial<PythonRunSettings> = {}): PythonRunSettings {
  return { runsDir: tempDir(), maxSeconds: 60, maxMemoryMb: 512, path: DEFAULT_RUN_PATH, sdkDir: SDK_DIR, runAs: TEST_RUN_AS, ...overrides };
}

/** What is left in RUNS_DIR once runs have ended; `.uids/` (the uid claims, RUN_UIDS) counts only when something is left in it. */
export function leftInRunsDir(runsDir: string): string[] {
  return readdirSync(runsDir).flatMap((name) => (name === '.uids' ? readdirSync(join(runsDir, name)).map((claim) => `.uids/${claim}`) : [name]));
}

export class MemorySink implements LogSink {
  batches: string[][] = [];
  get lines(): string[] {
    return this.batches.flat();
  }
  async append(lines: string[]): Promise<void> {
    this.batches.push([...lines]);
  }
}
