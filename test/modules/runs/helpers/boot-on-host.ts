// A run worker's readiness for tests that build the runs module without the devices module's
// lifecycle: boots the device on the host directly (a no-op when it is already booted) and
// marks it `ready`. Production hands the module the lifecycle's start-and-wait (build-modules.ts).
import type { Db } from '../../../../src/db/database.js';
import type { Clock } from '../../../../src/lib/clock.js';
import type { DeviceHost } from '../../../../src/modules/devices/index.js';
import type { RunReadiness } from '../../../../src/modules/runs/index.js';

export function bootOnHost(deps: { db: Db; clock: Clock; host: DeviceHost }): RunReadiness {
  return {
    async startAndWait({ userId }, { id: deviceId }, { signal } = {}) {
      const placement = await deps.host.placement(deviceId);
      if (placement?.status !== 'ready') {
        await deps.host.place(deviceId);
        await deps.host.boot(deviceId, { signal });
      }
      await deps.db.kysely
        .updateTable('devices')
        .set({ hosted_state: 'ready', hosted_state_message: null, updated_at: deps.clock.now() })
        .where('id', '=', deviceId)
        .where('user_id', '=', userId)
        .where('hosted_state', '!=', 'ready')
        .execute();
    },
  };
}
