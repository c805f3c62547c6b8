// Ctrl-C in a key command (`svc runs …`, `svc devices`, `svc code`): exit status 130 (128 +
// SIGINT, what a shell reports for a command it interrupted), as an exit code rather than a
// death by signal, so `npx`, a script's spawn and `$?` all read the same number. A followed
// run is not stopped by it: Ctrl-C stops following (`svc runs stop RUN` stops the run).
import type { Writable } from 'node:stream';

export const INTERRUPTED = 130;

export function exitOnInterrupt(err: Writable): void {
  process.once('SIGINT', () => {
    err.write('\nInterrupted (Ctrl-C); a run that was followed goes on: svc runs stop RUN stops it.\n');
    process.exit(INTERRUPTED);
  });
}
