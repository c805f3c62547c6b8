#!/usr/bin/env node
// @ts-check
// Webhook delivery: in one process, the real app (built from dist/) with the delivery worker
// running as `serve` runs it (createWebhookWorker, started after listen), delivering to a
// local HTTPS receiver on 127.0.0.1 that answers 200 at once. The receiver's certificate
// comes from a throw-away CA made with the openssl binary; the worker trusts it the way the
// tests pass it (createWebhookWorker's `ca`), since NODE_EXTRA_CA_CERTS is read only at start.
//   (a) throughput: one endpoint subscribed to `*`; N custom events emitted through
//       POST /api/webhooks/events (session, over HTTP) as fast as the emitters go; time from
//       the first emit until the receiver holds all N distinct webhook-ids → deliveries/s
//   (a') backlog drain: the worker stopped, N events queued, a fresh worker started; time
//       until all N arrived (delivery capacity without emits competing for the CPUs)
//   (b) fan-out: 10 endpoints (a second account); one event at a time, time from the emit
//       call to the 10th delivery of that event received; repeated, median and p95
//
// Usage (after `npm run build`, or `npm run bench:webhooks -- [options]`):
//   node bench/webhooks.js [--engine sqlite|postgres] [--events N] [--emitters N]
//                          [--fanout-rounds N] [--strict]
//   --engine postgres uses DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
//   in a fresh schema, and REDIS_URL (default redis://127.0.0.1:6379) under a fresh key
//   prefix; both are removed afterwards. --strict exits 1 when a goal is missed.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { systemClock } from '../dist/lib/clock.js';
import { createWebhookWorker } from '../dist/modules/webhooks/runner.js';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, signUpOverHttp, startBenchApp } from './lib/engine.js';
import { makeCa, startReceiver } from './lib/webhook-receiver.js';
import { benchTarget, checkEngine, cleanupStack, percentile, printTable, request, round, runMain } from './lib.js';

const GOAL_DELIVERIES_PER_S = 300;
const GOAL_FANOUT_MS = 200;
const FANOUT_ENDPOINTS = 10;

function options() {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'sqlite' },
      events: { type: 'string', default: '3000' },
      emitters: { type: 'string', default: '8' },
      'fanout-rounds': { type: 'string', default: '30' },
      strict: { type: 'boolean', default: false },
    },
  });
  const number = (name, min) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number ≥ ${min}, got "${values[name]}"`);
    return value;
  };
  checkEngine(values.engine);
  return { engine: values.engine, events: number('events', 1), emitters: number('emitters', 1), fanoutRounds: number('fanout-rounds', 1), strict: values.strict };
}

/** An account with a session (custom events) and a full-access key (endpoints). */
async function account(base, label, suffix) {
  const { auth: session } = await signUpOverHttp(base, `bench-${label}-${suffix}@example.com`, `pw-${suffix}-${suffix}`);
  const created = await request(base, 'POST', '/api/api-keys', { body: { name: `webhook bench ${label}`, expires_in: 'never' }, headers: session });
  return { session, key: { 'x-api-key': created.key } };
}

async function main() {
  const opts = options();
  const target = benchTarget(opts.engine, 'webhooks');
  const { suffix } = target;

  const config = benchConfig(target, {
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // Fast retries: a failed attempt (there should be none) comes back within seconds.
    WEBHOOK_RETRY_SCHEDULE: '0,1,1,2',
  });

  const cleanups = cleanupStack();
  const cleanup = cleanups.run;

  try {
    const { db, redis } = await openBenchEngine(target, { cleanups });

    const ca = makeCa();
    const receiver = await startReceiver(ca);
    cleanups.push(() => receiver.close());

    const app = await startBenchApp(benchAppDeps(config, db, redis), cleanups);
    // As `serve`: the worker is built beside the app and started once it listens; it closes
    // after the app (cleanups run in reverse).
    const newWorker = () => createWebhookWorker({ config, db, clock: systemClock, log: app.log, ca: [ca.caPem] });
    let workers = newWorker();
    cleanups.push(() => workers.close());
    const base = await listenLocally(app);
    workers.worker.start();

    const loadBefore = loadavg()[0];
    console.log(
      `Webhook delivery benchmark: engine=${opts.engine}${redis ? ' (+ Redis)' : ''}, ${opts.events} events by ${opts.emitters} emitters, ` +
        `fan-out to ${FANOUT_ENDPOINTS} × ${opts.fanoutRounds}, worker concurrency ${config.webhookConcurrency}, poll ${config.webhookPollMs} ms`,
    );
    console.log(`  ${cpus().length} CPUs, node ${process.version}, 1-min load average before: ${loadBefore.toFixed(2)}`);

    // (a) throughput
    const one = await account(base, 'throughput', suffix);
    await request(base, 'POST', '/api/webhooks', { body: { url: receiver.url, event_types: ['*'] }, headers: one.key });
    const emit = (who, i) => request(base, 'POST', '/api/webhooks/events', { body: { type: 'custom.bench', data: { i } }, headers: who.session });
    // Warm-up: one event end to end (connections, JIT), not counted.
    const warm = await emit(one, -1);
    await receiver.until(() => receiver.arrivals.has(warm.event_id), 10_000, () => 'the warm-up delivery');
    const emitted = new Set();
    let next = 0;
    const start = performance.now();
    const emitters = Array.from({ length: opts.emitters }, async () => {
      while (next < opts.events) {
        const i = next++;
        const result = await emit(one, i);
        if (result.deliveries !== 1) throw new Error(`event ${i} queued ${result.deliveries} deliveries, expected 1`);
        emitted.add(result.event_id);
      }
    });
    await Promise.all(emitters);
    const emitDone = performance.now();
    const delivered = () => {
      let count = 0;
      for (const id of emitted) if (receiver.arrivals.has(id)) count += 1;
      return count;
    };
    await receiver.until(() => delivered() === opts.events, 120_000, () => `${opts.events} deliveries (have ${delivered()})`);
    let lastArrival = 0;
    for (const id of emitted) lastArrival = Math.max(lastArrival, receiver.arrivals.get(id)[0]);
    const throughputMs = lastArrival - start;
    const emitMs = emitDone - start;
    const deliveriesPerS = opts.events / (throughputMs / 1000);
    const emitsPerS = opts.events / (emitMs / 1000);
    const duplicates = [...emitted].filter((id) => receiver.arrivals.get(id).length > 1).length;
    console.log(
      `  (a) ${opts.events} deliveries in ${throughputMs.toFixed(0)} ms: ${deliveriesPerS.toFixed(0)} deliveries/s ` +
        `(emitting took ${emitMs.toFixed(0)} ms, ${emitsPerS.toFixed(0)} events/s; ${duplicates} sent twice)`,
    );

    // (a') backlog drain: the worker stopped, N events queued, then a fresh worker started
    // (as after a restart); time from its start until all N arrived. Delivery capacity
    // alone, without emitting competing for the same two cores.
    await workers.close();
    const backlog = new Set();
    next = 0;
    await Promise.all(
      Array.from({ length: opts.emitters }, async () => {
        while (next < opts.events) {
          const i = next++;
          backlog.add((await emit(one, i)).event_id);
        }
      }),
    );
    workers = newWorker();
    const drainStart = performance.now();
    workers.worker.start();
    const drained = () => {
      let count = 0;
      for (const id of backlog) if (receiver.arrivals.has(id)) count += 1;
      return count;
    };
    await receiver.until(() => drained() === opts.events, 120_000, () => `${opts.events} backlog deliveries (have ${drained()})`);
    let lastDrained = 0;
    for (const id of backlog) lastDrained = Math.max(lastDrained, receiver.arrivals.get(id)[0]);
    const drainMs = lastDrained - drainStart;
    const drainPerS = opts.events / (drainMs / 1000);
    console.log(`  (a') backlog of ${opts.events} drained in ${drainMs.toFixed(0)} ms: ${drainPerS.toFixed(0)} deliveries/s`);

    // (b) fan-out
    const ten = await account(base, 'fanout', suffix);
    for (let i = 0; i < FANOUT_ENDPOINTS; i++) {
      await request(base, 'POST', '/api/webhooks', { body: { url: `${receiver.url}/${i}`, event_types: ['custom.*'] }, headers: ten.key });
    }
    const fanout = [];
    for (let round = -1; round < opts.fanoutRounds; round++) {
      const began = performance.now();
      const result = await emit(ten, round);
      if (result.deliveries !== FANOUT_ENDPOINTS) throw new Error(`fan-out event queued ${result.deliveries} deliveries, expected ${FANOUT_ENDPOINTS}`);
      const count = () => receiver.arrivals.get(result.event_id)?.length ?? 0;
      await receiver.until(() => count() >= FANOUT_ENDPOINTS, 30_000, () => `${FANOUT_ENDPOINTS} deliveries of one event (have ${count()})`);
      const ms = Math.max(...receiver.arrivals.get(result.event_id)) - began;
      if (round >= 0) fanout.push(ms); // round -1 warms up the nine new connections
    }
    const sorted = [...fanout].sort((a, b) => a - b);
    const fanP50 = percentile(sorted, 50);
    const fanP95 = percentile(sorted, 95);
    const fanMax = sorted[sorted.length - 1];
    const loadAfter = loadavg()[0];

    const deliveriesOk = deliveriesPerS >= GOAL_DELIVERIES_PER_S;
    const deliveriesGoalApplies = opts.engine === 'sqlite';
    const fanoutOk = fanP95 <= GOAL_FANOUT_MS;

    const rows = [
      ['measure', 'result', 'goal', 'verdict'],
      [
        `(a) deliveries/s (${opts.events} events)`,
        deliveriesPerS.toFixed(0),
        `≥ ${GOAL_DELIVERIES_PER_S}${deliveriesGoalApplies ? '' : ' (SQLite)'}`,
        deliveriesGoalApplies ? (deliveriesOk ? 'MET' : 'MISSED') : deliveriesOk ? '(would be met)' : '(would be missed)',
      ],
      ['(a) emit rate, events/s', emitsPerS.toFixed(0), '', ''],
      [`(a') backlog drain, deliveries/s`, drainPerS.toFixed(0), '', ''],
      [`(b) fan-out to ${FANOUT_ENDPOINTS}, median ms`, fanP50.toFixed(1), '', ''],
      [`(b) fan-out to ${FANOUT_ENDPOINTS}, p95 ms`, fanP95.toFixed(1), `≤ ${GOAL_FANOUT_MS}`, fanoutOk ? 'MET' : 'MISSED'],
      [`(b) fan-out to ${FANOUT_ENDPOINTS}, max ms`, fanMax.toFixed(1), '', ''],
    ];
    printTable(rows, [0, 3]);
    console.log('');
    console.log(`1-min load average before/after: ${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}; receiver saw ${receiver.requests} requests`);
    console.log(
      JSON.stringify({
        bench: 'webhooks',
        engine: opts.engine,
        redis: Boolean(redis),
        node: process.version,
        cpus: cpus().length,
        loadavg_1m: { before: round(loadBefore), after: round(loadAfter) },
        worker: { concurrency: config.webhookConcurrency, poll_ms: config.webhookPollMs },
        throughput: { events: opts.events, emitters: opts.emitters, ms: round(throughputMs, 1), deliveries_per_s: round(deliveriesPerS, 1), emit_ms: round(emitMs, 1), emits_per_s: round(emitsPerS, 1), duplicates },
        backlog_drain: { events: opts.events, ms: round(drainMs, 1), deliveries_per_s: round(drainPerS, 1) },
        fanout: { endpoints: FANOUT_ENDPOINTS, rounds: opts.fanoutRounds, p50_ms: round(fanP50), p95_ms: round(fanP95), max_ms: round(fanMax), samples_ms: fanout.map((ms) => round(ms, 1)) },
        goals: {
          deliveries_per_s_min: GOAL_DELIVERIES_PER_S,
          deliveries_applies: deliveriesGoalApplies,
          deliveries_met: deliveriesOk,
          fanout_p95_max_ms: GOAL_FANOUT_MS,
          fanout_met: fanoutOk,
        },
      }),
    );
    await cleanup();
    if (opts.strict && ((deliveriesGoalApplies && !deliveriesOk) || !fanoutOk)) process.exitCode = 1;
  } catch (error) {
    await cleanup();
    throw error;
  }
}

runMain('webhooks.js', main);
