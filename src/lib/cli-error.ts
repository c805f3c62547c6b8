// A failure to report to the person at the terminal as one line, without a stack, and the
// exit code to leave with (1 unless the command documents another).
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
