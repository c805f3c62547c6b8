// Fails fast, with a clear message, when the PostgreSQL or Redis run cannot reach them.
import pg from 'pg';
import { Redis } from 'ioredis';

export default async function setup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect().catch((error: Error) => {
      throw new Error(`DATABASE_URL is set but PostgreSQL does not answer: ${error.message}`);
    });
    await client.end();
  }
  if (process.env.REDIS_URL) {
    const redis = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
    await redis.connect().catch((error: Error) => {
      throw new Error(`REDIS_URL is set but Redis does not answer: ${error.message}`);
    });
    await redis.quit();
  }
}
