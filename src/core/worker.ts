// Background work a module runs beside (or without) the HTTP server: `serve` starts every
// module's workers unless RUN_WORKERS=false, and `svc worker` starts them alone.
export interface BackgroundWorker {
  /** For the logs: what this worker does. */
  readonly name: string;
  /** Begins taking work; returns at once. */
  start(): void;
  /** Stops taking work and resolves when the work in flight is recorded. */
  stop(): Promise<void>;
}
