// Shortcuts for cloud-device tests: a lifecycle worker on the test's database (with its own
// host, so a test can inject faults or a slow boot, and a spy for the run-stopping hook),
// and waiting for a device's state.
import { expect } from 'vitest';
import type { Db } from '../../../../src/db/database.js';
import type { Clock } from '../../../../src/lib/clock.js';
import { createLifecycleWorker, type DeviceHost, SimFaults, SimHost } from '../../../../src/modules/devices/index.js';

export const quietLog = { info() {}, warn() {}, error() {} };

export interface TestLifecycle {
  worker: ReturnType<typeof createLifecycleWorker>;
  host: DeviceHost;
  faults: SimFaults;
  /** Every call of the stopActiveRun hook: [deviceId, reason]. */
  stoppedRuns: [number, string][];
}

export function lifecycleFor(db: Db, clock: Clock, options: { bootMs?: number; name?: string } = {}): TestLifecycle {
  const faults = new SimFaults();
  const host = new SimHost({ db, clock, bootMs: options.bootMs ?? 0, faults });
  const stoppedRuns: [number, string][] = [];
  const worker = createLifecycleWorker({
    db,
    clock,
    log: quietLog,
    host,
    name: options.name,
    stopActiveRun: async (deviceId, reason) => {
      stoppedRuns.push([deviceId, reason]);
    },
  });
  return { worker, host, faults, stoppedRuns };
}

/** The device row's lifecycle columns, straight from the database. */
export function deviceRow(db: Db, id: number) {
  return db.kysely.selectFrom('devices').select(['hosted_state', 'hosted_state_message', 'locked_by', 'locked_until', 'delete_requested_at']).where('id', '=', id).executeTakeFirst();
}

export async function waitForState(db: Db, id: number, state: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await deviceRow(db, id);
    if (row?.hosted_state === state) return;
    if (Date.now() > deadline) expect(row?.hosted_state, `device ${id} never reached ${state}`).toBe(state);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
