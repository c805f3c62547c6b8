// What a device host changed on a phone while a cloud device held it, to give back when the
// device stops: the phone's own values (JSON) of the settings the ADB host sets at boot (stay
// awake while plugged in, animation scales). Kept with the placement, so whichever process
// stops the device can restore them.
import type { Kysely, Migration } from 'kysely';

export function placementRestore(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('device_placements').addColumn('restore_settings', 'text').execute();
    },
  };
}
