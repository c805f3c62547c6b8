// Checks shared by both drivers, so a bad coordinate or package name is refused the same way
// (422 validation_failed) whichever host runs the device, before anything reaches it.
import { ValidationError } from '../../../core/errors.js';
import type { ScreenSize, ScreenshotOptions } from './types.js';

export const MAX_SWIPE_MS = 60_000;
/** Android package names: dot-separated Java identifiers. */
const PACKAGE_PATTERN = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
/** Activity names: a class name, optionally starting with a dot (relative to the package). */
const ACTIVITY_PATTERN = /^\.?[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

function refuse(path: string, message: string): never {
  throw new ValidationError([{ path, message }]);
}

export function checkPoint(size: ScreenSize, x: number, y: number, names: [string, string] = ['x', 'y']): void {
  for (const [value, name, limit] of [
    [x, names[0], size.width],
    [y, names[1], size.height],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value >= limit) refuse(name, `must be a whole number from 0 to ${limit - 1} (the screen is ${size.width}×${size.height})`);
  }
}

export function checkDuration(ms: number): void {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_SWIPE_MS) refuse('duration_ms', `must be a whole number from 0 to ${MAX_SWIPE_MS}`);
}

export function checkPackage(pkg: string): void {
  if (typeof pkg !== 'string' || pkg.length > 255 || !PACKAGE_PATTERN.test(pkg)) refuse('package', `is not an Android package name (like com.example.app); got "${String(pkg).slice(0, 80)}"`);
}

export function checkActivity(activity: string): void {
  if (activity.length > 255 || !ACTIVITY_PATTERN.test(activity)) refuse('activity', `is not an activity class name (like .MainActivity); got "${activity.slice(0, 80)}"`);
}

export function checkText(text: string): void {
  if (typeof text !== 'string') refuse('text', 'must be a string');
  if (text.length > 10_000) refuse('text', 'must be at most 10000 characters');
}

export function checkScreenshotOptions(options: ScreenshotOptions): void {
  if (options.format !== undefined && options.format !== 'png' && options.format !== 'jpeg') refuse('format', 'must be png or jpeg');
  if (options.maxEdge !== undefined && (!Number.isInteger(options.maxEdge) || options.maxEdge < 16 || options.maxEdge > 8192)) refuse('max_edge', 'must be a whole number from 16 to 8192');
  if (options.quality !== undefined && (!Number.isInteger(options.quality) || options.quality < 1 || options.quality > 100)) refuse('quality', 'must be a whole number from 1 to 100');
}

/** The size a screenshot comes out at: the longer edge scaled down to `maxEdge`, never up. */
export function scaledSize(size: { width: number; height: number }, maxEdge: number | undefined): { width: number; height: number; scale: number } {
  const longer = Math.max(size.width, size.height);
  if (maxEdge === undefined || maxEdge >= longer) return { width: size.width, height: size.height, scale: 1 };
  const scale = maxEdge / longer;
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)), scale };
}
