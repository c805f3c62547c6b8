// Pictures as the engines read them: one byte of gray per pixel, row by row. Decoding is
// sharp's (libvips, on libuv's thread pool, so the event loop is free meanwhile). The header
// is read first, so a hostile or enormous image is refused before any pixel is decoded.
import sharp, { type Metadata } from 'sharp';
import { ValidationError } from '../../core/errors.js';
import { messageOf } from '../../lib/error-message.js';
import { ImageTooLargeError, type ImageRole, InvalidImageError } from './errors.js';

export interface GrayImage {
  width: number;
  height: number;
  /** `width × height` bytes, row-major, 0 black to 255 white. */
  data: Uint8Array;
}

/** A rectangle in pixels, Android style: left/top inclusive, right/bottom exclusive. */
export interface PixelBounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface DecodeLimits {
  maxSide: number;
  maxPixels: number;
}

/** A 4K tablet in portrait (2160×3840) fits with room; a 10000×10000 decompression bomb does not. */
export const DEFAULT_DECODE_LIMITS: DecodeLimits = { maxSide: 8192, maxPixels: 16_777_216 };

const FORMATS = new Set(['png', 'jpeg']);

/**
 * Decodes PNG or JPEG bytes to gray. Transparent pixels are laid on white (a crop of a
 * screen has none; an icon drawn on transparency matches best where the screen is light).
 * `region` cuts a rectangle first; it must lie inside the image.
 */
export async function decodeGray(bytes: Uint8Array, role: ImageRole, options: { region?: PixelBounds; limits?: DecodeLimits } = {}): Promise<GrayImage> {
  const limits = options.limits ?? DEFAULT_DECODE_LIMITS;
  if (bytes.length === 0) throw new InvalidImageError(role, 'it is empty');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new InvalidImageError(role, shortReason(error));
  }
  if (!meta.format || !FORMATS.has(meta.format)) throw new InvalidImageError(role, `its format is ${meta.format ?? 'unknown'}`);
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width < 1 || height < 1) throw new InvalidImageError(role, 'it has no pixels');
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) throw new ImageTooLargeError(role, width, height, limits);
  const region = options.region ? checkRegion(options.region, width, height) : undefined;
  try {
    let image = sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'truncated' });
    if (region) image = image.extract({ left: region.left, top: region.top, width: region.right - region.left, height: region.bottom - region.top });
    const { data, info } = await image.flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`decoded to ${info.channels} channels`);
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (error) {
    throw new InvalidImageError(role, shortReason(error));
  }
}

/** The region, checked: whole pixels, not empty, inside the image. */
export function checkRegion(region: PixelBounds, width: number, height: number): PixelBounds {
  const { left, top, right, bottom } = region;
  const whole = [left, top, right, bottom].every((v) => Number.isInteger(v));
  if (!whole || left < 0 || top < 0 || right > width || bottom > height || right <= left || bottom <= top) {
    throw new ValidationError([{ path: 'region', message: `must be a non-empty rectangle of whole pixels inside the ${width}×${height} image` }]);
  }
  return region;
}

/** libvips' first line is the useful part ("Input buffer contains unsupported image format"). */
function shortReason(error: unknown): string {
  const text = messageOf(error).split('\n')[0].trim();
  return text.length > 160 ? `${text.slice(0, 159)}…` : text || 'it could not be decoded';
}
