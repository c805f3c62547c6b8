// What the ADB host learns of a phone at boot, kept with the placement so whichever process
// drives or stops the device knows it: the phone's own values (JSON) of the settings the host
// changes while it holds the phone (stay awake while plugged in, animation scales), to give
// back when the device stops; and, on a phone with several physical displays (a foldable),
// the one that is on, for screencap.
import type { Kysely, Migration } from 'kysely';

export function placementRestore(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('device_placements').addColumn('restore_settings', 'text').execute();
      await db.schema.alterTable('device_placements').addColumn('screen_display', 'text').execute();
    },
  };
}
