// The vision benchmarks: template matching and OCR speed, and the full accuracy fixture sets.
// They reuse the tests' fixtures (screens drawn by the simulated device), so vitest runs them,
// but they are measurements, not tests: `npm test` never runs them (its pattern is *.test.ts).
// Run with `npm run bench:vision`; results go to docs/PERFORMANCE.md.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['bench/vision/*.vision.ts'],
    pool: 'forks',
    // One at a time: a measurement shares the machine with nothing of its own.
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 120_000,
    expect: { requireAssertions: true },
  },
});
