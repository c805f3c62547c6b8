// Shortcuts for runner tests: a zip of Python files, a log sink that keeps every batch in
// memory, and runner settings with a fresh RUNS_DIR.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RUN_PATH } from '../../../../src/config.js';
import type { LogSink } from '../../../../src/modules/runs/logs/log-sink.js';
import type { PythonRunSettings } from '../../../../src/modules/runs/runner/python-run.js';
import { SDK_DIR } from '../../../../src/modules/runs/runner/sdk-dir.js';
import { buildZip } from '../../../helpers/zip.js';

export function zipOf(files: Record<string, string | Buffer>): Buffer {
  return buildZip(Object.entries(files).map(([name, data]) => ({ name, data })));
}

export function runnerSettings(overrides: Partial<PythonRunSettings> = {}): PythonRunSettings {
  return { runsDir: mkdtempSync(join(tmpdir(), 'svc-runs-test-')), maxSeconds: 60, maxMemoryMb: 512, path: DEFAULT_RUN_PATH, sdkDir: SDK_DIR, ...overrides };
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
