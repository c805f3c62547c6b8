// The run settings: defaults, and a bad value stops start-up naming the setting.
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config.js';

describe('run settings', () => {
  test('defaults', () => {
    expect(loadConfig({})).toMatchObject({
      runsEnabled: true,
      runsPerWorker: 8,
      runsDir: join(tmpdir(), 'svc-runs'),
      runMaxSeconds: 3600,
      runMaxMemoryMb: 512,
      runPath: '/usr/local/bin:/usr/bin:/bin',
    });
  });

  test('set', () => {
    const config = loadConfig({ RUNS_ENABLED: 'off', RUNS_PER_WORKER: '2', RUNS_DIR: 'runs-here', RUN_MAX_SECONDS: '60', RUN_MAX_MEMORY_MB: '64', RUN_PATH: '/opt/py/bin:/usr/bin' });
    expect(config).toMatchObject({ runsEnabled: false, runsPerWorker: 2, runsDir: resolve('runs-here'), runMaxSeconds: 60, runMaxMemoryMb: 64, runPath: '/opt/py/bin:/usr/bin' });
  });

  test.each([
    ['RUNS_ENABLED', 'maybe', /RUNS_ENABLED: expected true or false/],
    ['RUNS_PER_WORKER', '0', /RUNS_PER_WORKER: must be between 1 and 1000/],
    ['RUN_MAX_SECONDS', '1.5', /RUN_MAX_SECONDS: expected a whole number/],
    ['RUN_MAX_SECONDS', '604801', /RUN_MAX_SECONDS: must be between 1 and 604800/],
    ['RUN_MAX_MEMORY_MB', '32', /RUN_MAX_MEMORY_MB: must be between 64 and 1048576/],
    ['RUN_PATH', 'bin:/usr/bin', /RUN_PATH: must be a colon-separated list of absolute folders .*"bin" is not one/],
    ['RUN_PATH', '/usr/bin::/bin', /RUN_PATH: .*"" is not one/],
  ])('%s=%s is refused', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
