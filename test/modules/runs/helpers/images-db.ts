// A host test database with the image finder over its library, opened before a file's tests
// and closed after them: what the block interpreter and the trace recorder run against.
import { afterAll, beforeAll } from 'vitest';
import { systemClock } from '../../../../src/lib/clock.js';
import { ImageLibrary, ScreenImages } from '../../../../src/modules/images/index.js';
import { type HostTestDb, openHostTestDb } from '../../devices/hosts/helpers/database.js';

export interface ImagesDb {
  t: HostTestDb;
  images: ScreenImages;
}

/** Registers the file's set-up and tear-down; the fields are filled once `beforeAll` has run. */
export function useImagesDb(): ImagesDb {
  const world = {} as ImagesDb;
  beforeAll(async () => {
    world.t = await openHostTestDb();
    world.images = new ScreenImages(new ImageLibrary(world.t.db.kysely, systemClock));
  });
  afterAll(async () => {
    await world.images.close();
    await world.t.close();
  });
  return world;
}
