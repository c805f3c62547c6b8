// The simulated phone's randomness (§15: loading times, interrupt probabilities): a small
// generator (mulberry32) whose whole state is one 32-bit number kept in the device's state, so
// every process drawing from it continues the same sequence. Seeded at each boot, from
// SIM_SEED when set (the same sequence on every run, for tests) or at random.
import { randomInt } from 'node:crypto';
import type { SimState } from './state.js';

/** A fresh seed for a device start: SIM_SEED when given, else a random one. */
export function bootSeed(fixed: number | undefined): number {
  return fixed !== undefined ? fixed >>> 0 : randomInt(0, 2 ** 32);
}

/** The next number in [0, 1), advancing the state's generator. */
export function draw(state: SimState): number {
  state.rng = (state.rng + 0x6d2b79f5) >>> 0;
  let t = state.rng;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A whole number in [min, max]. */
export function drawInt(state: SimState, min: number, max: number): number {
  return min + Math.floor(draw(state) * (max - min + 1));
}
