// Where a template is on a screen: the entry point the image tools, block steps and the SDK
// call. Decodes both pictures (sharp, off the event loop), checks the options, and runs the
// coarse-to-fine search (template-match.ts) on OpenCV's WebAssembly build, on a thread of the
// process's matching pool (match-pool.ts), never on the caller's.
import { ValidationError } from '../../core/errors.js';
import { ImageTooLargeError } from './errors.js';
import { DEFAULT_DECODE_LIMITS, decodeGray, type DecodeLimits, type GrayImage } from './gray-image.js';
import { sharedMatchPool, type TemplateMatcher } from './match-pool.js';
import { DEFAULT_MAX_SCALE, DEFAULT_MIN_SCALE } from './scales.js';
import type { MatchOptions, MatchTrace, TemplateMatch } from './template-match.js';

export interface FindTemplateOptions {
  /** Lowest score a match must reach, 0..1 (default DEFAULT_MATCH_THRESHOLD). */
  threshold?: number;
  /** The scales to try, the template's size on this screen over its own (default 0.5 to 2). `{min: 1, max: 1}` tries only its own size. */
  scales?: { min: number; max: number };
  /** At most this many matches, the best ones (default 20, at most 100). */
  maxMatches?: number;
  limits?: DecodeLimits;
  /** Filled with what the search did (tests, benchmarks). */
  trace?: MatchTrace;
  /** Where the search runs (default: this process's pool; the runs thread relays to it). */
  matcher?: TemplateMatcher;
}

/**
 * The default threshold. On the simulator's fixture set every present template scores at least
 * 0.957 where it was cut (at its own size or redrawn for another density), while the best
 * absent one (a look-alike: another button of the same style, another line of the same font)
 * stays at 0.754 or below. See docs/images-and-maps.md.
 */
export const DEFAULT_MATCH_THRESHOLD = 0.85;
export const MAX_MATCHES_LIMIT = 100;
/** The scale range a caller may ask for: a template from a 120 dpi phone on a 640 dpi tablet is 5.3×. */
export const SCALE_LIMITS = { min: 0.2, max: 5 } as const;

export function matchOptions(options: FindTemplateOptions = {}): MatchOptions {
  const threshold = options.threshold ?? DEFAULT_MATCH_THRESHOLD;
  const { min, max } = options.scales ?? { min: DEFAULT_MIN_SCALE, max: DEFAULT_MAX_SCALE };
  const maxMatches = options.maxMatches ?? 20;
  const errors = [];
  if (!(Number.isFinite(threshold) && threshold >= 0 && threshold <= 1)) errors.push({ path: 'threshold', message: 'must be a number from 0 to 1' });
  if (!(Number.isFinite(min) && Number.isFinite(max) && min >= SCALE_LIMITS.min && max <= SCALE_LIMITS.max && min <= max)) {
    errors.push({ path: 'scales', message: `must have min ≤ max, both from ${SCALE_LIMITS.min} to ${SCALE_LIMITS.max}` });
  }
  if (!(Number.isInteger(maxMatches) && maxMatches >= 1 && maxMatches <= MAX_MATCHES_LIMIT)) errors.push({ path: 'max_matches', message: `must be a whole number from 1 to ${MAX_MATCHES_LIMIT}` });
  if (errors.length > 0) throw new ValidationError(errors);
  return { threshold, minScale: min, maxScale: max, maxMatches };
}

/** Accepts encoded bytes (PNG or JPEG) or an already decoded gray picture. */
export type ImageInput = Uint8Array | GrayImage;

const isGray = (input: ImageInput): input is GrayImage => !(input instanceof Uint8Array);

/** A decoded picture handed in by a caller: whole, positive sizes, one byte per pixel, within the limits. */
function checkGray(image: GrayImage, role: 'screen' | 'template', limits: DecodeLimits = DEFAULT_DECODE_LIMITS): GrayImage {
  const { width, height, data } = image;
  const sized = Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0;
  if (!sized || !(data instanceof Uint8Array) || data.length !== width * height) throw new ValidationError([{ path: role, message: 'must be width × height bytes of gray, one per pixel' }]);
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) throw new ImageTooLargeError(role, width, height, limits);
  return image;
}

/**
 * Every place `template` appears on `screen` scoring at least the threshold, best first, in
 * the screen's pixels (pass a full-size screenshot to get device pixels). Throws
 * InvalidImageError / ImageTooLargeError for bad pictures, TemplateUnusableError for a flat or
 * tiny template, ValidationError for bad options.
 */
export async function findTemplate(screen: ImageInput, template: ImageInput, options: FindTemplateOptions = {}): Promise<TemplateMatch[]> {
  const settings = matchOptions(options);
  const [screenGray, templateGray] = await Promise.all([
    isGray(screen) ? checkGray(screen, 'screen', options.limits) : decodeGray(screen, 'screen', { limits: options.limits }),
    isGray(template) ? checkGray(template, 'template', options.limits) : decodeGray(template, 'template', { limits: options.limits }),
  ]);
  return (options.matcher ?? sharedMatchPool()).match(screenGray, templateGray, settings, options.trace);
}
