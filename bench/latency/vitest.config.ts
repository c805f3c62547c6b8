// The in-process latency benchmarks: the device hosts' per-action times and a run's first log
// line. They reuse the tests' helpers (fake ADB server, test databases), so vitest runs them,
// but they are measurements, not tests: `npm test` never runs them (its pattern is *.test.ts).
// Run with `npm run bench:latency` (add DATABASE_URL/REDIS_URL for PostgreSQL).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['bench/latency/*.latency.ts'],
    pool: 'forks',
    // One at a time: a measurement shares the machine with nothing of its own.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    globalSetup: ['test/global-setup.ts'],
    expect: { requireAssertions: true },
  },
});
