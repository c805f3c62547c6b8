import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file builds its own app on its own database (a fresh SQLite file, or a fresh
    // PostgreSQL schema), so files run in parallel safely.
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core CI machine, where most
    // of a file's time is spent waiting on subprocesses, sockets and databases, not on the CPU.
    // Three overlap those waits (VITEST_MAX_WORKERS overrides).
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/global-setup.ts'],
    // A test that asserts nothing cannot fail: refuse it.
    expect: { requireAssertions: true },
  },
});
