#!/usr/bin/env node
// @ts-check
// Reads that join another module's table on a hot path, each timed as one statement against
// the same read split into the owners' calls (issue 34 §2: a module reads only its own
// tables; READ_EXCEPTIONS in test/helpers/table-owners.ts keeps the joins that pay), on a
// fresh database of either engine:
//   key gate     a key-cache miss (every request on PostgreSQL without Redis): the key with
//                its owner and subscription in one statement (KeyResolver's, kept), against
//                the key, then the account and the subscription side by side
//   delivery     a webhook attempt's read of its claimed delivery, endpoint and event bytes
//                (the delivery job's payload, kept), against delivery and endpoint, then the
//                event's bytes (eventPayload)
//   listing page a marketplace page of 20 listings with their authors' names, as the join
//                with users read it before, against the page, then the names (accountNames),
//                as the search reads it now
// Prints p50 and p90 per read in microseconds, and what the split costs at the p50.
//
// Usage (after `npm run build`):
//   node bench/joined-reads.js [--engine sqlite|postgres] [--reads N]
//   --engine postgres uses DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) in a
//   fresh schema, dropped afterwards.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { accountNames } from '../dist/modules/accounts/index.js';
import { eventPayload } from '../dist/modules/events/index.js';
import { selectListings } from '../dist/modules/marketplace/present.js';
import { webhookDeliveryJob } from '../dist/modules/webhooks/delivery-job.js';
import { benchConfig, openBenchEngine } from './lib/engine.js';
import { benchTarget, checkEngine, cleanupStack, percentile, printTable, round, runMain } from './lib.js';

const USERS = 500;
const ROWS = 5000;
const BATCH = 500;
const PAGE = 20;

function options() {
  const { values } = parseArgs({ options: { engine: { type: 'string', default: 'sqlite' }, reads: { type: 'string', default: '2000' } } });
  checkEngine(values.engine);
  const reads = Number(values.reads);
  if (!Number.isInteger(reads) || reads < 1) throw new Error('--reads must be a whole number ≥ 1');
  return { engine: values.engine, reads };
}

/**
 * @param {import('./lib/engine.js').Db} db
 * @param {number} now
 */
async function seed(db, now) {
  const k = db.kysely;
  const users = [];
  for (let start = 0; start < USERS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, USERS - start) }, (_, i) => ({ email: `reader-${start + i}@bench.example`, name: `Reader ${start + i}`, password_hash: 'x', created_at: now, disabled_at: null }));
    users.push(...(await k.insertInto('users').values(rows).returning('id').execute()).map((r) => r.id));
  }
  await k.insertInto('subscriptions').values(users.map((user_id) => ({ user_id, status: 'active', plan: 'pro', trial_ends_at: null, current_period_end: now + 86_400_000, updated_at: now }))).execute();
  const keys = [];
  const deliveries = [];
  const endpoints = [];
  for (const [i, user_id] of users.slice(0, 50).entries()) {
    const endpoint = { user_id, url: `https://hooks${i}.example/in`, description: null, event_types: '["*"]', secret_encrypted: 'x', secret_prefix: 'whsec_x', scope_mode: /** @type {const} */ ('all'), scope_group_ids: '[]', scope_device_ids: '[]', enabled: 1, first_failure_at: null, disabled_reason: null, last_success_at: null, created_at: now, updated_at: now };
    endpoints.push({ user_id, id: (await k.insertInto('webhook_endpoints').values(endpoint).returning('id').executeTakeFirstOrThrow()).id });
  }
  for (let start = 0; start < ROWS; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, ROWS - start) }, (_, j) => start + j);
    const keyRows = batch.map((i) => ({ user_id: users[i % USERS], name: `key ${i}`, key_hash: `${i}`.padStart(64, '0'), prefix: 'sk_x', scopes: '[]', created_at: now, expires_at: null, revoked_at: null, last_used_at: null }));
    keys.push(...(await k.insertInto('api_keys').values(keyRows).returning('key_hash').execute()).map((r) => r.key_hash));
    const data = 'x'.repeat(800);
    const eventRows = batch.map((i) => ({ user_id: endpoints[i % endpoints.length].user_id, event_id: `evt_${i}`, type: 'custom.bench', device_id: null, payload: JSON.stringify({ id: `evt_${i}`, type: 'custom.bench', data }), created_at: now }));
    const events = await k.insertInto('events').values(eventRows).returning(['id', 'event_id', 'user_id']).execute();
    const deliveryRows = events.map((event, j) => ({
      user_id: event.user_id, endpoint_id: endpoints[(start + j) % endpoints.length].id, event_pk: event.id, event_id: event.event_id, event_type: 'custom.bench', status: /** @type {const} */ ('pending'),
      next_attempt_at: now, locked_until: now + 3_600_000, locked_by: 'bench', last_status_code: null, last_error: null, last_response_body: null, delivered_at: null, created_at: now, updated_at: now,
    }));
    deliveries.push(...(await k.insertInto('webhook_deliveries').values(deliveryRows).returning('id').execute()).map((r) => r.id));
    const listingRows = batch.map((i) => ({
      user_id: users[i % USERS], macro_id: null, kind: /** @type {const} */ ('block'), title: `Listing ${i}`, summary: 'a bench listing', description: '', tags: '[]', tags_text: '', visible: 1, hidden_at: null, hidden_reason: null,
      latest_version: 1, installs: (i * 7919) % 10_000, rating_sum: 0, rating_count: 0, published_at: now - i, created_at: now, updated_at: now,
    }));
    await k.insertInto('marketplace_listings').values(listingRows).execute();
  }
  if (db.dialect === 'postgres') await sql`vacuum (analyze)`.execute(k);
  else await sql`analyze`.execute(k);
  return { keys, deliveries };
}

/**
 * Times `n` calls of `read`, after a few untimed ones (connections, plans); answers microseconds.
 * @param {number} n
 * @param {(i: number) => Promise<unknown>} read
 */
async function timeEach(n, read) {
  for (let i = 0; i < 5; i += 1) await read(i);
  const times = [];
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    await read(i);
    times.push((performance.now() - started) * 1000);
  }
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 50), 0), p90: round(percentile(times, 90), 0) };
}

async function main() {
  const { engine, reads } = options();
  const target = benchTarget(engine, 'joined-reads');
  const cleanups = cleanupStack();
  try {
    const { db } = await openBenchEngine(target, { cleanups, redis: false, poolSize: 5 });
    const k = db.kysely;
    const { keys, deliveries } = await seed(db, Date.now());
    const job = webhookDeliveryJob(benchConfig(target));
    const pageAt = (/** @type {number} */ i) => (i % 50) * PAGE;

    const cases = [
      {
        read: 'key gate',
        // KeyResolver's statement (its load, without the parsing around it).
        joined: (/** @type {number} */ i) =>
          k
            .selectFrom('api_keys as k')
            .leftJoin('users as u', 'u.id', 'k.user_id')
            .leftJoin('subscriptions as s', 's.user_id', 'k.user_id')
            .select(['k.id', 'k.user_id', 'k.name', 'k.prefix', 'k.key_hash', 'k.scopes', 'k.expires_at', 'k.revoked_at', 'u.email', 'u.disabled_at', 's.status', 's.plan', 's.trial_ends_at', 's.current_period_end'])
            .where('k.key_hash', '=', keys[i % keys.length])
            .executeTakeFirst(),
        split: async (/** @type {number} */ i) => {
          const key = await k.selectFrom('api_keys').select(['id', 'user_id', 'name', 'prefix', 'key_hash', 'scopes', 'expires_at', 'revoked_at']).where('key_hash', '=', keys[i % keys.length]).executeTakeFirstOrThrow();
          return Promise.all([
            k.selectFrom('users').select(['email', 'disabled_at']).where('id', '=', key.user_id).executeTakeFirst(),
            k.selectFrom('subscriptions').select(['status', 'plan', 'trial_ends_at', 'current_period_end']).where('user_id', '=', key.user_id).executeTakeFirst(),
          ]);
        },
      },
      {
        read: 'delivery',
        joined: (/** @type {number} */ i) => job.payload(k, { id: deliveries[i % deliveries.length], token: 'bench' }),
        split: async (/** @type {number} */ i) => {
          const row = await k
            .selectFrom('webhook_deliveries as d')
            .leftJoin('webhook_endpoints as ep', 'ep.id', 'd.endpoint_id')
            .select(['d.endpoint_id', 'd.event_id', 'd.event_pk', 'd.schedule_step', 'ep.url', 'ep.secret_encrypted', 'ep.enabled'])
            .where('d.id', '=', deliveries[i % deliveries.length])
            .where('d.locked_by', '=', 'bench')
            .where('d.status', '=', 'pending')
            .executeTakeFirstOrThrow();
          return { ...row, payload: await eventPayload(k, row.event_pk) };
        },
      },
      {
        read: 'listing page',
        joined: (/** @type {number} */ i) =>
          k.selectFrom('marketplace_listings as l').innerJoin('users as u', 'u.id', 'l.user_id').selectAll('l').select('u.name as author_name').where('l.visible', '=', 1).orderBy('l.installs', 'desc').orderBy('l.id', 'desc').limit(PAGE).offset(pageAt(i)).execute(),
        split: async (/** @type {number} */ i) => {
          const rows = await selectListings(k).where('l.visible', '=', 1).orderBy('l.installs', 'desc').orderBy('l.id', 'desc').limit(PAGE).offset(pageAt(i)).execute();
          return { rows, names: await accountNames(k, rows.map((row) => row.user_id)) };
        },
      },
    ];

    const rows = [];
    for (const { read, joined, split } of cases) {
      // Alternated halves, so a busy moment on the machine falls on both sides.
      const half = Math.ceil(reads / 2);
      const j1 = await timeEach(half, joined);
      const s1 = await timeEach(half, split);
      const j2 = await timeEach(half, joined);
      const s2 = await timeEach(half, split);
      const j = { p50: round((j1.p50 + j2.p50) / 2, 0), p90: round((j1.p90 + j2.p90) / 2, 0) };
      const s = { p50: round((s1.p50 + s2.p50) / 2, 0), p90: round((s1.p90 + s2.p90) / 2, 0) };
      const signed = (/** @type {number} */ n) => `${n >= 0 ? '+' : ''}${n}`;
      rows.push([read, String(j.p50), String(j.p90), String(s.p50), String(s.p90), `${signed(round(s.p50 - j.p50, 0))} µs (${signed(round((s.p50 / j.p50 - 1) * 100, 0))} %)`]);
    }
    console.log(`engine ${engine}, ${reads} reads per shape (p50 / p90 in µs)`);
    printTable([['read', 'joined p50', 'joined p90', 'split p50', 'split p90', 'split costs'], ...rows]);
  } finally {
    await cleanups.run();
  }
}

runMain('joined-reads.js', main);
