// A run's limits, set by a tiny Python wrapper before the macro's interpreter starts: it sets
// RLIMIT_AS (soft and hard, so the macro cannot raise it again), no core dumps and, in the
// sandbox, RLIMIT_NPROC (RUN_MAX_PROCESSES: the run's uid is its own, so the count is the
// run's), then replaces itself (exec) with `python3 <entry> …`, which keeps the limits. The
// wrapper runs isolated (-I: no PYTHON* variables, no user site; -S: no site import), so
// nothing of the run's own environment or code runs before the limits are in place.
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
// In the sandbox (sandbox/), the wrapper is also its first process: it copies the code into
// the run's size-limited folder, starts the socket bridges (socat) that are the run's only
// ways out, waits until they listen, and gives the macro the default SIGTERM back (the
// sandbox's launcher ignores it, so that a stop reaches the macro rather than bubblewrap).
//
// Past the memory limit, allocations fail: Python raises MemoryError, which, unless the macro
// catches it, ends the process with that as its last stderr line. That is how the runner
// tells a run that ran out of memory from one that failed otherwise.

const WRAPPER = [
  'import json, os, resource, signal, sys, time',
  'cfg = json.loads(sys.argv[1])',
  "resource.setrlimit(resource.RLIMIT_AS, (cfg['memory'], cfg['memory']))",
  'resource.setrlimit(resource.RLIMIT_CORE, (0, 0))',
  "if 'processes' in cfg: resource.setrlimit(resource.RLIMIT_NPROC, (cfg['processes'], cfg['processes']))",
  'os.nice(19)',
  "getattr(os, 'sched_setscheduler', None) and os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))",
  // The bridges start while the code is copied.
  "for port, path in cfg.get('bridges', []):",
  "    os.posix_spawnp('socat', ['socat', f'TCP-LISTEN:{port},bind=127.0.0.1,reuseaddr,fork', f'UNIX-CONNECT:{path}'], os.environ)",
  "if 'copy' in cfg:",
  '    import shutil',
  '    try: shutil.copytree(cfg["copy"][0], cfg["copy"][1], dirs_exist_ok=True)',
  "    except OSError as e: sys.exit(f'svc runner: the code could not be copied into the run folder: {e} (RUN_MAX_DISK_MB)')",
  "want = {'%04X' % port for port, _ in cfg.get('bridges', [])}",
  'deadline = time.monotonic() + 5',
  'while want and time.monotonic() < deadline:',
  "    with open('/proc/net/tcp') as f: want -= {l.split()[1].split(':')[1] for l in f.read().splitlines()[1:] if l.split()[3] == '0A'}",
  '    want and time.sleep(0.002)',
  "if want: sys.exit('svc runner: the sandbox bridges did not start (is socat on RUN_PATH?)')",
  'signal.signal(signal.SIGTERM, signal.SIG_DFL)',
  "os.environ.pop('PWD', None)",
  "for what, path in (('the Python SDK folder', os.environ.get('PYTHONPATH', '')), ('its HOME', os.environ.get('HOME', ''))):",
  '    if path and not os.access(path, os.R_OK | os.X_OK):',
  "        sys.exit(f'svc runner: the run (uid {os.getuid()}) cannot read {what} {path}; make it and every folder above it readable for that user')",
  "os.execv(sys.executable, ['python3'] + sys.argv[2:])",
].join('\n');

const MiB = 1024 * 1024;

/** What the wrapper does besides the memory limit, in the sandbox. */
export interface SandboxSteps {
  /** RLIMIT_NPROC. */
  maxProcesses: number;
  /** Copy the code from `[0]` (read-only) to `[1]` (the run's working directory). */
  copy: [string, string];
  /** Listen on 127.0.0.1:port inside, forwarding to the Unix socket at path. */
  bridges: [number, string][];
}

/** The argv that runs `command` (`python3 <entry> …`) under the run's limits. */
export function limitedCommand(command: string[], maxMemoryMb: number, sandbox?: SandboxSteps): string[] {
  const [python, ...rest] = command;
  const cfg = { memory: maxMemoryMb * MiB, ...(sandbox ? { processes: sandbox.maxProcesses, copy: sandbox.copy, bridges: sandbox.bridges } : {}) };
  return [python, '-I', '-S', '-c', WRAPPER, JSON.stringify(cfg), ...rest];
}

/** What the last stderr line of a process that ran out of memory looks like. */
const OUT_OF_MEMORY = /^MemoryError\b|Cannot allocate memory|out of memory|memory allocation failed/i;

export function looksOutOfMemory(lastStderrLine: string | null): boolean {
  return lastStderrLine !== null && OUT_OF_MEMORY.test(lastStderrLine);
}
