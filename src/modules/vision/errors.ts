// The typed failures of the vision engines. Each carries the status and `details.code` of
// the error envelope, so a route or tool can let it through and a block step can put its
// message in the run's error: a person reading it knows what to change.
import { AppError, ServiceUnavailableError } from '../../core/errors.js';

/** Which input an image error is about, as the message names it. */
export type ImageRole = 'screen' | 'template' | 'image';

/** 422 `invalid_image`: bytes that are not a PNG or JPEG picture, or one cut short. */
export class InvalidImageError extends AppError {
  constructor(role: ImageRole, reason: string) {
    super(422, 'invalid_image', `The ${role} is not a readable PNG or JPEG image (${reason}).`, { role });
  }
}

/** 422 `image_too_large`: more pixels than the engines take (decoding is bounded before it starts). */
export class ImageTooLargeError extends AppError {
  constructor(role: ImageRole, width: number, height: number, limit: { maxSide: number; maxPixels: number }) {
    super(422, 'image_too_large', `The ${role} is ${width}×${height} pixels; at most ${limit.maxSide} pixels a side and ${limit.maxPixels} pixels in all are read.`, { role, width, height, max_side: limit.maxSide, max_pixels: limit.maxPixels });
  }
}

/**
 * 422 `template_unusable`: a template correlation cannot locate — a single flat colour (its
 * normalised correlation is undefined: OpenCV answers 1.0 everywhere) or too small to hold
 * a pattern.
 */
export class TemplateUnusableError extends AppError {
  constructor(readonly reason: string) {
    super(422, 'template_unusable', `This template cannot be matched: ${reason}`);
  }
}

/** 503 `vision_unavailable`: an engine (OpenCV's or Tesseract's WebAssembly) failed to start or died. */
export class VisionUnavailableError extends ServiceUnavailableError {
  constructor(
    readonly engine: 'opencv' | 'ocr',
    readonly reason: string,
  ) {
    super('vision_unavailable', `The ${engine === 'opencv' ? 'image matching' : 'text recognition'} engine is not available: ${reason}`);
  }
}
