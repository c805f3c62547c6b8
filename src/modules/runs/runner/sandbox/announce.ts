// What the operator is told about the run sandbox (decisions.md §10): start-up prints which
// RUN_SANDBOX applies and why, GET /healthz carries a warning while Python runs are not
// sandboxed, and a `required` sandbox that cannot be made refuses new runs (503).
import type { Config } from '../../../../config.js';
import { sandboxStatus, type SandboxStatus } from './sandbox-status.js';

export function runSandboxStatus(config: Pick<Config, 'runSandbox' | 'runAs' | 'runPath'>): Promise<SandboxStatus> {
  return sandboxStatus({ sandbox: config.runSandbox, runAs: config.runAs, path: config.runPath });
}

/** A warning for GET /healthz while Python runs would not be sandboxed; none when runs are off. */
export async function runSandboxWarning(config: Pick<Config, 'runSandbox' | 'runAs' | 'runPath' | 'runsEnabled'>): Promise<string | undefined> {
  if (!config.runsEnabled) return undefined;
  const status = await runSandboxStatus(config);
  return status.sandboxed ? undefined : status.message;
}

/** Start-up's line: info when sandboxed, a warning otherwise. */
export async function announceRunSandbox(config: Pick<Config, 'runSandbox' | 'runAs' | 'runPath' | 'runsEnabled'>, log: { info(message: string): void; warn(message: string): void }): Promise<void> {
  if (!config.runsEnabled) return;
  const status = await runSandboxStatus(config);
  if (status.sandboxed) log.info(status.message);
  else log.warn(status.message);
}
