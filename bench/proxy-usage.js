#!/usr/bin/env node
// @ts-check
// Proxy usage at scale: ingests N samples (default 1,000,000) through the same service the
// POST /api/proxy/usage route uses (batches of 1000, with the per-day roll-up), then times
// GET /api/proxy/usage's aggregation for each period, and, for comparison, the same totals
// summed straight from the raw samples table.
//
// Usage (after `npm run build`, or `npm run bench:proxy-usage -- [options]`):
//   node bench/proxy-usage.js [--engine sqlite|postgres] [--samples N] [--runs N]
//   --engine postgres uses DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
//   in a fresh schema that is dropped afterwards; sqlite uses a file in a temporary folder.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { ManualClock } from '../dist/lib/clock.js';
import { UsageService } from '../dist/modules/proxies/usage.js';
import { openBenchEngine } from './lib/engine.js';
import { benchTarget, checkEngine, cleanupStack, percentile } from './lib.js';

const { values } = parseArgs({
  options: { engine: { type: 'string', default: 'sqlite' }, samples: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '20' } },
});
const engine = values.engine;
checkEngine(engine);
const total = Number(values.samples);
const runs = Number(values.runs);
const DAY = 86_400_000;
const NOW = Date.parse('2026-03-18T12:00:00Z');

const target = benchTarget(engine, 'proxy-usage');
const cleanups = cleanupStack();
try {
  const { db } = await openBenchEngine(target, { cleanups, poolSize: 5, redis: false });
  const k = db.kysely;
  const { id: userId } = await k.insertInto('users').values({ email: 'bench@example.com', name: null, password_hash: 'x', created_at: NOW, disabled_at: null }).returning('id').executeTakeFirstOrThrow();
  const groups = [];
  for (let g = 0; g < 5; g++) {
    groups.push((await k.insertInto('device_groups').values({ user_id: userId, name: `group ${g}`, description: null, kind: 'byod', created_at: NOW, updated_at: NOW }).returning('id').executeTakeFirstOrThrow()).id);
  }
  const devices = [];
  for (let d = 0; d < 50; d++) {
    const values = { user_id: userId, name: `device ${d}`, port: 5555 + d, is_hosted: 0, hosted_state: null, group_id: groups[d % 5], macro_id: null, profile_id: null, created_at: NOW, updated_at: NOW };
    devices.push((await k.insertInto('devices').values(values).returning('id').executeTakeFirstOrThrow()).id);
  }
  const proxies = [];
  for (let p = 0; p < 20; p++) {
    /** @type {import('kysely').Insertable<import('../dist/db/schema.js').Database['proxies']>} */
    const values = { user_id: userId, mode: 'byop', label: `proxy ${p}`, scheme: 'http', host: `p${p}.example.com`, port: 8000 + p, username: '', password_enc: null, session_type: 'sticky', gateway: null, targeting: null, status: 'unchecked', last_check_at: null, last_exit_ip: null, last_exit_country: null, last_exit_city: null, last_exit_asn: null, last_latency_ms: null, last_error: null, created_at: NOW, updated_at: NOW };
    proxies.push((await k.insertInto('proxies').values(values).returning('id').executeTakeFirstOrThrow()).id);
  }
  const clock = new ManualClock(NOW);
  const usage = new UsageService(k, clock);
  // The caller, as the route would pass it for a signed-in session of the bench user.
  /** @type {import('../dist/core/context.js').ServiceContext} */
  const ctx = { userId, keyId: null, sessionId: null, scopes: [], requestId: 'bench', clientAddress: null };

  // 90 days of samples, spread evenly, the newest at NOW.
  const ingestStart = performance.now();
  let seed = 1;
  const rand = (n) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  for (let done = 0; done < total; done += 1000) {
    const batch = [];
    for (let i = 0; i < Math.min(1000, total - done); i++) {
      const n = done + i;
      batch.push({ proxy_id: proxies[rand(20)], device_id: rand(10) === 0 ? undefined : devices[rand(50)], bytes_up: rand(100_000), bytes_down: rand(1_000_000), at: new Date(NOW - Math.floor(((total - n) / total) * 90 * DAY)).toISOString() });
    }
    await usage.record(ctx, { samples: batch });
  }
  const ingestSeconds = (performance.now() - ingestStart) / 1000;
  const [{ daily }] = (await sql`select count(*) as daily from proxy_usage_daily`.execute(k)).rows.map((row) => /** @type {{ daily: number | string }} */ (row));

  console.log(`engine ${engine}: ${total.toLocaleString('en')} samples ingested in ${ingestSeconds.toFixed(1)} s (${Math.round(total / ingestSeconds).toLocaleString('en')}/s, batches of 1000); ${Number(daily).toLocaleString('en')} roll-up rows`);
  console.log('| period | report median ms | p95 ms | raw-samples sum ms |');
  console.log('|---|---:|---:|---:|');
  for (const period of /** @type {const} */ (['today', 'week', 'month', 'all'])) {
    const times = [];
    let report = await usage.report(ctx, { period });
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      report = await usage.report(ctx, { period });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    // The same totals summed from raw samples: what the report would cost without the roll-up.
    const since = report.since ? Date.parse(report.since) : 0;
    const t0 = performance.now();
    const [raw] = (await sql`select sum(bytes_up) as up from proxy_usage_samples where user_id = ${userId} and at >= ${since}`.execute(k)).rows.map((row) => /** @type {{ up: number | string }} */ (row));
    const rawMs = performance.now() - t0;
    if (Number(raw.up) !== report.bytes_up) throw new Error(`roll-up and raw samples disagree for ${period}: ${report.bytes_up} vs ${raw.up}`);
    console.log(`| ${period} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 95).toFixed(2)} | ${rawMs.toFixed(1)} |`);
  }
} finally {
  await cleanups.run();
}
