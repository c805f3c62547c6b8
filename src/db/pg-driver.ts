// The PostgreSQL driver, loaded when a PostgreSQL database is opened (never on the embedded
// default), with the type parsing every connection of the service relies on.
import type * as Pg from 'pg';
import { onFirstUse } from '../lib/on-first-use.js';
import { packageOnDemand } from '../lib/package-on-demand.js';

const loadPg = packageOnDemand<typeof Pg>('pg');

export const pgDriver = onFirstUse(() => {
  const pg = loadPg();
  // PostgreSQL returns bigint (int8) as a string to avoid precision loss. Our bigints are ids,
  // counts and millisecond timestamps, all far below 2^53, so numbers are safe.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  return pg;
});
