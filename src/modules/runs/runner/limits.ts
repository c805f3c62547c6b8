// A run's memory limit, set by a tiny Python wrapper before the macro's interpreter starts:
// it sets RLIMIT_AS (soft and hard, so the macro cannot raise it again) and no core dumps,
// then replaces itself (exec) with `python3 <entry> …`, which keeps the limits. The wrapper
// runs isolated (-I: no PYTHON* variables, no user site; -S: no site import), so nothing of
// the run's own environment or code runs before the limit is in place.
//
// The wrapper also lowers the macro's CPU priority, which the macro cannot undo: nice 19 and
// the SCHED_BATCH policy (no wake-up preemption). Fifty busy macros at nice 10 still
// outweighed the service's own threads by five to one on the scheduler; at nice 19 they
// weigh less than one of them, so the API and the log shipping get the CPU when they wake.
//
// Before the macro, the wrapper checks that the run can read the Python SDK (PYTHONPATH) and
// its HOME. Under RUN_AS_USER they are read as that user, and an SDK installed under a
// private folder (/root/…) would otherwise surface as a puzzling "No module named svc_device".
//
// Past the limit, allocations fail: Python raises MemoryError, which, unless the macro
// catches it, ends the process with that as its last stderr line. That is how the runner
// tells a run that ran out of memory from one that failed otherwise.

const WRAPPER = [
  'import os, resource, sys',
  "for what, path in (('the Python SDK folder', os.environ.get('PYTHONPATH', '')), ('its HOME', os.environ.get('HOME', ''))):",
  '    if path and not os.access(path, os.R_OK | os.X_OK):',
  "        sys.exit(f'svc runner: the run (uid {os.getuid()}) cannot read {what} {path}; make it and every folder above it readable for that user')",
  'limit = int(sys.argv[1])',
  'resource.setrlimit(resource.RLIMIT_AS, (limit, limit))',
  'resource.setrlimit(resource.RLIMIT_CORE, (0, 0))',
  'os.nice(19)',
  "getattr(os, 'sched_setscheduler', None) and os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))",
  "os.execv(sys.executable, ['python3'] + sys.argv[2:])",
].join('\n');

const MiB = 1024 * 1024;

/** The argv that runs `command` (`python3 <entry> …`) under the memory limit. */
export function limitedCommand(command: string[], maxMemoryMb: number): string[] {
  const [python, ...rest] = command;
  return [python, '-I', '-S', '-c', WRAPPER, String(maxMemoryMb * MiB), ...rest];
}

/** What the last stderr line of a process that ran out of memory looks like. */
const OUT_OF_MEMORY = /^MemoryError\b|Cannot allocate memory|out of memory|memory allocation failed/i;

export function looksOutOfMemory(lastStderrLine: string | null): boolean {
  return lastStderrLine !== null && OUT_OF_MEMORY.test(lastStderrLine);
}
