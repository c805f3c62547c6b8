// What the library accepts as a picture: PNG or JPEG, at most 5 MiB, decodable to the last
// pixel. Width and height come from the picture itself, never from the client.
import sharp from 'sharp';
import { PayloadTooLargeError } from '../../core/errors.js';
import type { ImageContentType } from '../../core/values.js';
import { messageOf } from '../../lib/error-message.js';
import { DEFAULT_DECODE_LIMITS, ImageTooLargeError, InvalidImageError } from '../vision/index.js';

/** app-api.md "Image library": at most 5 MiB decoded. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

const CONTENT_TYPES: Record<string, ImageContentType> = { png: 'image/png', jpeg: 'image/jpeg' };

export interface CheckedImage {
  width: number;
  height: number;
  contentType: ImageContentType;
}

/**
 * Reads the header first, so a decompression bomb (a small file claiming 100000×100000
 * pixels) is refused before any pixel is decoded, then decodes the whole picture once so a
 * file cut short is refused now rather than failing every match later.
 */
export async function checkImageBytes(bytes: Buffer): Promise<CheckedImage> {
  if (bytes.length > IMAGE_MAX_BYTES) throw new PayloadTooLargeError(IMAGE_MAX_BYTES);
  if (bytes.length === 0) throw new InvalidImageError('image', 'it is empty');
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch((error: unknown) => {
      throw new InvalidImageError('image', firstLine(error));
    });
  const contentType = meta.format ? CONTENT_TYPES[meta.format] : undefined;
  if (!contentType) throw new InvalidImageError('image', `its format is ${meta.format ?? 'unknown'}; PNG and JPEG are accepted`);
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width < 1 || height < 1) throw new InvalidImageError('image', 'it has no pixels');
  const limits = DEFAULT_DECODE_LIMITS;
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) throw new ImageTooLargeError('image', width, height, limits);
  await sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'truncated' })
    .stats()
    .catch((error: unknown) => {
      throw new InvalidImageError('image', firstLine(error));
    });
  return { width, height, contentType };
}

function firstLine(error: unknown): string {
  const text = messageOf(error).split('\n')[0].trim();
  return text.length > 160 ? `${text.slice(0, 159)}…` : text || 'it could not be decoded';
}
