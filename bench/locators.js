#!/usr/bin/env node
// @ts-check
// Locators on `sim` (issue 31, "Speed"): a locator action when the element is already there
// costs at most 20 ms more at p50 than the same action by coordinates. Both go through the
// device-action catalogue's `device_tap` entry, the code every surface runs (tool server,
// agent, the runs' device RPC, block steps), on the real app built from dist/, side by side in
// one run: rounds alternate coordinates and a selector on the same element, and BACK between
// rounds (not timed) brings the screen back.
//
// Usage (after `npm run build`): node bench/locators.js [--engine sqlite|postgres] [--rounds N]
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { entryNamed } from '../dist/modules/devices/index.js';
import { benchAppDeps, benchConfig, listenLocally, openBenchEngine, readySimPhone, startBenchApp } from './lib/engine.js';
import { benchTarget, checkEngine, cleanupStack, percentile, round } from './lib.js';

const GOAL_MS = 20;

async function main() {
  const { values } = parseArgs({ options: { engine: { type: 'string', default: 'sqlite' }, rounds: { type: 'string', default: '100' } } });
  checkEngine(values.engine);
  const rounds = Number(values.rounds);
  const target = benchTarget(values.engine, 'locators');
  const cleanups = cleanupStack();
  try {
    const { db, redis } = await openBenchEngine(target, { cleanups });
    const app = await startBenchApp(benchAppDeps(benchConfig(target, { SIM_BOOT_MS: '20' }), db, redis), cleanups);
    const base = await listenLocally(app);
    const { userId, driver } = await readySimPhone(app, base, { label: 'locators', suffix: target.suffix, deviceName: 'Locator phone' }, cleanups);
    const env = { driver, owner: { userId }, vision: app.modules.images.services.screen };
    await driver.closeApp('com.example.shop');
    await driver.openApp('com.example.shop');
    const row = (await driver.uiTree()).find((e) => e.resource_id.endsWith(':id/row_beans'));
    if (!row) throw new Error('the Corner Shop catalog shows no row_beans');
    const point = { x: Math.floor((row.bounds.left + row.bounds.right) / 2), y: Math.floor((row.bounds.top + row.bounds.bottom) / 2) };
    const tap = entryNamed('device_tap');
    const key = entryNamed('device_key');
    /** @type {{ coordinates: number[], locator: number[] }} */
    const times = { coordinates: [], locator: [] };
    for (let i = 0; i < rounds * 2; i++) {
      const kind = i % 2 === 0 ? 'coordinates' : 'locator';
      const started = performance.now();
      const answer = await tap.run(env, kind === 'coordinates' ? point : { selector: { resource_id: 'row_beans' } });
      times[kind].push(performance.now() - started);
      const hit = /** @type {{ element_id?: string } | null | undefined} */ (answer.data?.hit);
      if (hit?.element_id !== 'row_beans') throw new Error(`round ${i} (${kind}) hit ${JSON.stringify(hit)}`);
      await key.run(env, { key: 'BACK' });
    }
    /** @param {number[]} xs */
    const p50 = (xs) => round(percentile([...xs].sort((a, b) => a - b), 50));
    /** @param {number[]} xs */
    const p99 = (xs) => round(percentile([...xs].sort((a, b) => a - b), 99));
    const gap = round(p50(times.locator) - p50(times.coordinates));
    console.log(`\nlocators benchmark on ${values.engine}, ${rounds} rounds each, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log('| tap | p50 ms | p99 ms |\n|---|---|---|');
    console.log(`| by coordinates | ${p50(times.coordinates)} | ${p99(times.coordinates)} |`);
    console.log(`| by locator (resource_id, already there) | ${p50(times.locator)} | ${p99(times.locator)} |`);
    console.log(`\np50 gap ${gap} ms (goal ≤ ${GOAL_MS} ms): ${gap <= GOAL_MS ? 'PASS' : 'MISS'}`);
  } finally {
    await cleanups.run();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
