#!/usr/bin/env node
// @ts-check
// Key gate overhead: in one process and one run, measures the real app answering
//   bare  GET /bench/bare    a public route registered only here, same handler output
//                            and response schema as /api/whoami, no key checks
//   gated GET /api/whoami    the same answer behind the API key gate (x-api-key)
// with autocannon (50 connections) against the listening server, order bare → gated →
// bare; the bare figure is the mean of the two bare runs so that drift over the run
// (JIT, GC, thermal) does not favour either side. --rounds N alternates N gated runs with
// N + 1 bare ones (each figure is then the mean over its runs), which evens out a machine
// whose other work comes and goes. With Redis it also counts the commands the
// app's Redis connection sends per gated request (one, once the key is cached).
//
// Usage (after `npm run build`, or `npm run bench:gate -- [options]`):
//   node bench/gate.js [--engine sqlite|postgres] [--duration SECONDS] [--warmup SECONDS]
//                      [--connections N] [--rounds N] [--strict]
//   --engine postgres uses DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
//   in a fresh schema, and REDIS_URL (default redis://127.0.0.1:6379) under a fresh key
//   prefix; both are removed afterwards. --strict exits 1 when a goal is missed.
// Goals (issue 9): gated ≥ 70 % of bare with p99 < 10 ms on SQLite; ≥ 60 % on PostgreSQL + Redis.
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { WhoAmI } from '../dist/modules/api-keys/schemas.js';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, signUpOverHttp, startBenchApp } from './lib/engine.js';
import { assertAllOk, benchTarget, checkEngine, cleanupStack, loadRun, printTable, request, round, runMain } from './lib.js';

const GOALS = { sqlite: { ratio: 0.7, p99Ms: 10 }, postgres: { ratio: 0.6, p99Ms: null } };

function options() {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'sqlite' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '1' },
      strict: { type: 'boolean', default: false },
    },
  });
  const number = (name, min) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be a number ≥ ${min}, got "${values[name]}"`);
    return value;
  };
  checkEngine(values.engine);
  return {
    engine: values.engine,
    duration: number('duration', 1),
    warmup: number('warmup', 0),
    connections: Math.floor(number('connections', 1)),
    rounds: Math.floor(number('rounds', 1)),
    strict: values.strict,
  };
}

async function main() {
  const opts = options();
  const target = benchTarget(opts.engine, 'gate');
  const { suffix } = target;

  const config = benchConfig(target);

  const cleanups = cleanupStack();
  const cleanup = cleanups.run;

  try {
    const { db, redis } = await openBenchEngine(target, { cleanups });
    let redisCommands = 0;
    if (redis) {
      // Every command the app sends goes through sendCommand; each is one round trip here
      // (no pipelining), so this counts the gate's round trips.
      const send = redis.sendCommand.bind(redis);
      redis.sendCommand = (...args) => {
        redisCommands += 1;
        return send(...args);
      };
    }

    const app = await startBenchApp(benchAppDeps(config, db, redis), cleanups);

    // The baseline: the same JSON /api/whoami gives the bench user, through the same
    // response schema and the app's global hooks (guards, metrics), without a key check.
    // The body is filled in once the user and key exist, before any measurement.
    let bareBody = null;
    app.get('/bench/bare', { config: { auth: { kind: 'public' } }, schema: { hide: true, response: { 200: WhoAmI } } }, async () => bareBody);
    await app.ready();
    const base = await listenLocally(app);

    const signedIn = await signUpOverHttp(base, `bench-${suffix}@example.com`, `pw-${suffix}-${suffix}`);
    const created = await request(base, 'POST', '/api/api-keys', { body: { name: 'gate bench', expires_in: 'never' }, headers: signedIn.auth });
    const keyHeaders = { 'x-api-key': created.key };
    bareBody = {
      user: { id: signedIn.id, email: signedIn.email },
      api_key: { id: created.api_key.id, name: created.api_key.name, prefix: created.api_key.prefix, scopes: created.api_key.scopes, expires_at: created.api_key.expires_at },
    };
    const whoami = await request(base, 'GET', '/api/whoami', { headers: keyHeaders });
    const bare = await request(base, 'GET', '/bench/bare');
    if (JSON.stringify(whoami) !== JSON.stringify(bare)) {
      throw new Error(`/bench/bare must answer exactly what /api/whoami does:\n  whoami ${JSON.stringify(whoami)}\n  bare   ${JSON.stringify(bare)}`);
    }

    const targets = { bare: { url: `${base}/bench/bare`, headers: {} }, gated: { url: `${base}/api/whoami`, headers: keyHeaders } };
    const order = ['bare', ...Array.from({ length: opts.rounds }, () => ['gated', 'bare']).flat()];
    const runs = [];
    console.log(
      `Key gate benchmark: engine=${opts.engine}${redis ? ' (+ Redis)' : ''}, ${opts.connections} connections, ` +
        `${opts.warmup} s warm-up + ${opts.duration} s per run, order ${order.join(' → ')}`,
    );
    const loadBefore = loadavg()[0];
    console.log(`  ${cpus().length} CPUs, node ${process.version}, 1-min load average before: ${loadBefore.toFixed(2)}`);
    for (const name of order) {
      const target = targets[name];
      if (opts.warmup > 0) assertAllOk(`${name} warm-up`, await loadRun(target.url, target.headers, opts.warmup, opts.connections));
      const commandsBefore = redisCommands;
      const result = await loadRun(target.url, target.headers, opts.duration, opts.connections);
      assertAllOk(name, result);
      const redisPerRequest = redis ? (redisCommands - commandsBefore) / result.total : null;
      runs.push({ target: name, ...result, redisPerRequest });
      console.log(
        `  ${name.padEnd(5)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms  ` +
          `${result.cpuUsPerRequest.toFixed(1)} CPU µs/req  ${redisPerRequest !== null ? `${redisPerRequest.toFixed(3)} Redis commands/req  ` : ''}(${result.total} requests, all 2xx)`,
      );
    }
    const loadAfter = loadavg()[0];

    const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
    const summary = (name) => {
      const of = runs.filter((r) => r.target === name);
      const field = (key) => mean(of.map((r) => r[key]));
      return { runs: of.length, rps: field('rps'), p50: field('p50'), p99: field('p99'), cpuUsPerRequest: field('cpuUsPerRequest'), redisPerRequest: redis ? field('redisPerRequest') : null };
    };
    const bareSummary = summary('bare');
    const gatedRun = summary('gated');
    const ratio = gatedRun.rps / bareSummary.rps;
    const goal = GOALS[opts.engine];
    const ratioOk = ratio >= goal.ratio;
    const p99Ok = goal.p99Ms === null || gatedRun.p99 < goal.p99Ms;

    const rows = [
      ['target', 'req/s (mean)', 'p50 ms', 'p99 ms', 'CPU µs/req'],
      [`bare (mean of ${bareSummary.runs})`, bareSummary.rps.toFixed(0), bareSummary.p50.toFixed(2), bareSummary.p99.toFixed(2), bareSummary.cpuUsPerRequest.toFixed(1)],
      [`gated /api/whoami${gatedRun.runs > 1 ? ` (mean of ${gatedRun.runs})` : ''}`, gatedRun.rps.toFixed(0), gatedRun.p50.toFixed(2), gatedRun.p99.toFixed(2), gatedRun.cpuUsPerRequest.toFixed(1)],
    ];
    printTable(rows);
    console.log('');
    console.log(`gated / bare throughput: ${(ratio * 100).toFixed(1)} %`);
    console.log(`gate cost in this process: +${(gatedRun.cpuUsPerRequest - bareSummary.cpuUsPerRequest).toFixed(1)} CPU µs per request`);
    console.log(`1-min load average before/after: ${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)} (other work on the machine skews req/s)`);
    if (gatedRun.redisPerRequest !== null) console.log(`Redis commands per gated request: ${gatedRun.redisPerRequest.toFixed(3)} (one round trip each)`);
    console.log(`goal gated ≥ ${goal.ratio * 100} % of bare (${opts.engine}): ${ratioOk ? 'MET' : 'MISSED'}`);
    if (goal.p99Ms !== null) console.log(`goal gated p99 < ${goal.p99Ms} ms (${opts.engine}):   ${p99Ok ? 'MET' : 'MISSED'}`);
    console.log(
      JSON.stringify({
        bench: 'key-gate',
        engine: opts.engine,
        redis: Boolean(redis),
        connections: opts.connections,
        duration_s: opts.duration,
        warmup_s: opts.warmup,
        rounds: opts.rounds,
        node: process.version,
        cpus: cpus().length,
        loadavg_1m: { before: round(loadBefore), after: round(loadAfter) },
        runs: runs.map((r) => ({
          target: r.target,
          rps: round(r.rps),
          p50_ms: round(r.p50),
          p99_ms: round(r.p99),
          cpu_us_per_req: round(r.cpuUsPerRequest, 1),
          requests: r.total,
          redis_commands_per_req: r.redisPerRequest === null ? null : round(r.redisPerRequest, 3),
        })),
        bare: { rps: round(bareSummary.rps), p50_ms: round(bareSummary.p50), p99_ms: round(bareSummary.p99), cpu_us_per_req: round(bareSummary.cpuUsPerRequest, 1) },
        gated: {
          rps: round(gatedRun.rps),
          p50_ms: round(gatedRun.p50),
          p99_ms: round(gatedRun.p99),
          cpu_us_per_req: round(gatedRun.cpuUsPerRequest, 1),
          redis_commands_per_req: gatedRun.redisPerRequest === null ? null : round(gatedRun.redisPerRequest, 3),
        },
        ratio: round(ratio, 4),
        goals: { ratio_min: goal.ratio, ratio_met: ratioOk, p99_max_ms: goal.p99Ms, p99_met: goal.p99Ms === null ? null : p99Ok },
      }),
    );
    await cleanup();
    if (opts.strict && (!ratioOk || !p99Ok)) process.exitCode = 1;
  } catch (error) {
    await cleanup();
    throw error;
  }
}

runMain('gate.js', main);
