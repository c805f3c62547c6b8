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
    // Test files share a worker process and its module cache (each file still builds its own
    // app on its own database): importing the service once per worker instead of once per file
    // took three folders' tests from 179 s to 60 s. So shared set-up is registered by a call in
    // each file (useXHarness(), useAppAndUser()), never as a side effect of importing a module,
    // which happens once per worker.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/global-setup.ts'],
    // A test that asserts nothing cannot fail: refuse it.
    expect: { requireAssertions: true },
  },
});
