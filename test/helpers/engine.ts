// Which engine this test run uses: SQLite by default, PostgreSQL and Redis when
// DATABASE_URL and REDIS_URL are set (CI runs the suite both ways).
export const TEST_DATABASE_URL = process.env.DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.REDIS_URL || undefined;
export const ENGINE = TEST_DATABASE_URL ? 'postgres' : 'sqlite';
