// Finding a library image on a run's screen, the same way for the SDK's `find_image` and the
// block steps `tap {image_id}` and `if_image`. The matching itself is the images module's
// (ScreenImages, on the vision engines); build-modules.ts hands it in as this port, so a
// macro and a tool client find the same match on the same screen.
import { NotFoundError } from '../../../core/errors.js';
import { type DeviceDriver, type DeviceVision, IMAGE_THRESHOLD_DEFAULT, type ImageMatch } from '../../devices/index.js';

/**
 * Template matching and OCR (the images module's ScreenImages): `find` answers matches at or
 * above `threshold`, best first, in device pixels (an image not in the owner's library:
 * NotFoundError); the device-action catalogue reads text with it too.
 */
export type ImageFinder = DeviceVision;

/** decisions.md §10 (`find_image(image_id, threshold=0.9)`) and §11 (the block steps' `threshold`): the catalogue's. */
export { IMAGE_THRESHOLD_DEFAULT };

/** Taps the centre of the best match; 404 `image_not_found` when the image does not show. */
export async function tapImage(finder: ImageFinder, userId: number, driver: DeviceDriver, imageId: string, threshold = IMAGE_THRESHOLD_DEFAULT): Promise<ImageMatch> {
  const [best] = await finder.find({ userId }, driver, { imageId, threshold });
  if (!best) throw new NotFoundError(`The image ${imageId} does not show on the screen (no match scoring ${threshold} or more).`, 'image_not_found');
  await driver.tap(best.x + Math.floor(best.w / 2), best.y + Math.floor(best.h / 2));
  return best;
}

/** Whether the image shows on the screen now (`if_image`). */
export async function imageShows(finder: ImageFinder, userId: number, driver: DeviceDriver, imageId: string, threshold = IMAGE_THRESHOLD_DEFAULT): Promise<boolean> {
  return (await finder.find({ userId }, driver, { imageId, threshold })).length > 0;
}
