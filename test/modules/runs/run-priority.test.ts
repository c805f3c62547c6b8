// A macro runs at the lowest CPU priority (nice 19, SCHED_BATCH), set by the runner's wrapper
// before the macro's code starts, and cannot raise it again: fifty busy macros must not take
// the CPU from the service's API and log shipping (docs/PERFORMANCE.md, cloud runs).
import { afterAll, expect, test } from 'vitest';
import { LogShipper } from '../../../src/modules/runs/logs/log-shipper.js';
import { runPython } from '../../../src/modules/runs/runner/python-run.js';
import { MemorySink, removeTempDirs, runnerSettings, zipOf } from './helpers/runner.js';

afterAll(removeTempDirs);

const MACRO = `import os
print("nice", os.nice(0))
print("batch", os.sched_getscheduler(0) == os.SCHED_BATCH)
try:
    os.nice(-1)
    print("raised", os.nice(0))
except PermissionError:
    print("raised", "refused")
`;

test('the macro runs at nice 19 under SCHED_BATCH', async () => {
  const sink = new MemorySink();
  const logs = new LogShipper(sink);
  const outcome = await runPython(runnerSettings(), {
    executionId: 'cr_0123456789abcdef01234567',
    zip: zipOf({ 'main.py': MACRO }),
    entryPath: 'main.py',
    args: {},
    deviceUrl: 'http://127.0.0.1:9/api/runs/devices/7',
    token: 'svr_test',
    logs,
  });
  await logs.close();
  expect(outcome.state).toBe('finished');
  expect(sink.lines.slice(0, 2)).toEqual(['nice 19', 'batch True']);
  // Only root may lower its niceness again, and a run never is root (RUN_AS_USER under a root service).
  expect(sink.lines[2]).toBe('raised refused');
});
