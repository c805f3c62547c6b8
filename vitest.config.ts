import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file builds its own app on its own database (a fresh SQLite file, or a fresh
    // PostgreSQL schema), so files run in parallel safely.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/global-setup.ts'],
    // A test that asserts nothing cannot fail: refuse it.
    expect: { requireAssertions: true },
  },
});
