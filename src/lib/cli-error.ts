// A failure to report to the person at the terminal as one line, without a stack.
export class CliError extends Error {}
