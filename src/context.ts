// What the modules are built from (build-modules.ts), once per app or worker process: the
// settings with the secret key resolved, the database, the clock, and what tests replace.
import type pino from 'pino';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Redis } from './db/redis.js';
import type { Resolver } from './lib/address-policy.js';
import type { Clock } from './lib/clock.js';
import type { ScryptParams } from './lib/crypto.js';
import type { Geolocator } from './modules/proxies/index.js';
import type { TemplateMatcher } from './modules/vision/index.js';

export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  /** Present when REDIS_URL is configured. */
  redis?: Redis;
  /** Overridden only by tests, which cannot afford 32 MiB hashes for every sign-up. */
  passwordParams?: ScryptParams;
  /** A pino destination; tests capture it to prove secrets never reach the log. */
  logStream?: pino.DestinationStream;
  /** Where exit IPs are; the offline database unless a test injects one (its exits are 127.0.0.1). */
  geolocator?: Geolocator;
  /** Host-name look-ups for address checks; tests inject answers (the DNS-rebinding case). */
  resolver?: Resolver;
  /** Where template matches run: the process's pool unless given (the runs thread relays to the API thread's, decision 0025). */
  matcher?: TemplateMatcher;
}
