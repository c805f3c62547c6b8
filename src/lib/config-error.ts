// A bad setting: start-up stops with this one line, naming the setting (exit code 2).
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`Invalid setting ${setting}: ${problem}`);
  }
}
