// The scales a template is tried at, on one geometric grid anchored at 1×: a fine step of
// 2^(1/20) (3.5 %, under 2 px of error on a 120 px template) and a coarse step of four fine
// ones (2^(1/5), 15 %). The coarse pass tries the coarse steps; the full-resolution pass
// refines around its candidates on the fine grid, so 1× is always tried exactly.
export const FINE_STEPS_PER_OCTAVE = 20;
export const COARSE_STRIDE = 4;

export const DEFAULT_MIN_SCALE = 0.5;
export const DEFAULT_MAX_SCALE = 2;

/** The scale of fine step `k` (0 is 1×, -20 is 0.5×, 20 is 2×). */
export function scaleOf(k: number): number {
  return 2 ** (k / FINE_STEPS_PER_OCTAVE);
}

/** The fine steps within [min, max]; min = max = 1 gives the single step 0. */
export function stepRange(min: number, max: number): { low: number; high: number } {
  const eps = 1e-9;
  // `+ 0` turns -0 (ceil of a tiny negative) into 0.
  return { low: Math.ceil(FINE_STEPS_PER_OCTAVE * Math.log2(min) - eps) + 0, high: Math.floor(FINE_STEPS_PER_OCTAVE * Math.log2(max) + eps) + 0 };
}

/** The coarse steps: every COARSE_STRIDE-th fine step in range, plus the ends when no coarse step is within half a stride of them. */
export function coarseSteps(low: number, high: number): number[] {
  const steps: number[] = [];
  for (let k = Math.ceil(low / COARSE_STRIDE) * COARSE_STRIDE; k <= high; k += COARSE_STRIDE) steps.push(k);
  const half = COARSE_STRIDE / 2;
  if (steps.length === 0 || steps[0] - low > half) steps.unshift(low);
  if (high - steps[steps.length - 1] > half) steps.push(high);
  return steps;
}
