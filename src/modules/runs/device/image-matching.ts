// Image matching (finding a library image on the screen) comes with the image issue. Until
// then every caller, the SDK's `find_image` and the block steps `tap` by image and
// `if_image`, gets the same clear refusal instead of a guess.
import { AppError } from '../../../core/errors.js';

export class ImageMatchingUnavailableError extends AppError {
  constructor() {
    super(501, 'image_matching_unavailable', 'image matching is not available yet: find elements by their text or id instead.');
  }
}
