#!/usr/bin/env node
// @ts-check
// Robustness of locators against coordinates (issue 31, "Speed and robustness"): the same task on
// Daily Feed (open it, dismiss "Rate Daily Feed" when it comes, scroll to the 80th post, open it,
// save it), written twice as real Python macros, bench/robustness/coordinates.py (taps and fixed
// sleeps, as a person writes from one run's screenshots) and bench/robustness/locators.py
// (svc_device.locate, when, scroll_to). Each runs --runs times as a cloud run on `sim`, through
// the real app from dist/ with its runs on their own thread, as `serve` runs them, and SIM_SEED
// unset: every device draws its own loading times.
//
// A user's phone, as each run meets it: the app was swiped away before the run (the bench
// closes it, untimed), so it starts afresh behind its loading screen; the count of opens that
// brings the dialog on every third one is the device's and goes on from run to run (§15).
// --devices phones work side by side (a `sim` host always has room; RUNS_PER_WORKER, 8, caps
// a process), each running pairs, coordinates then locators, so each macro meets the dialog on
// a third of its runs.
//
// A run passes only when the end state says so, not on its exit code: it finished; the tap that
// opened the post hit the 80th post's row (`post_79`, as the service answered the tap, printed
// by the macro); the screen in front is that post's, saved ("Saved" where "Save post" was); and
// BACK twice shows the feed beneath, kept as it was, with the 80th post's headline on screen.
//
// Usage (after `npm run build`): node bench/locator-robustness.js [--engine sqlite|postgres] [--runs N] [--devices N] [--strict]
//   --strict exits 1 when the locator macro passes fewer than 99 % of its runs.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { worktreeHash } from '../dist/modules/code-sync/hash.js';
import { zipWorktree } from '../dist/modules/code-sync/worktree.js';
import { FEED_POSTS } from '../dist/modules/devices/hosts/sim/apps/daily-feed/posts.js';
import { signUpOverHttp } from './lib/engine.js';
import { startServeLike } from './lib/serve-like.js';
import { benchTarget, checkEngine, cleanupStack, percentile, printTable, request, round, runMain } from './lib.js';

const FEED = 'com.example.feed';
const POST_INDEX = 79; // the 80th post
const POST_TITLE = FEED_POSTS[POST_INDEX].title;
const GOAL_PASS_RATE = 0.99;
const MACROS = /** @type {const} */ (['coordinates', 'locators']);
/** @typedef {(typeof MACROS)[number]} MacroName */

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

function options() {
  const { values } = parseArgs({
    options: { engine: { type: 'string', default: 'sqlite' }, runs: { type: 'string', default: '100' }, devices: { type: 'string', default: '4' }, strict: { type: 'boolean', default: false } },
  });
  checkEngine(values.engine);
  const runs = Number(values.runs);
  const devices = Number(values.devices);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number ≥ 1');
  if (!Number.isInteger(devices) || devices < 1 || devices > 8) throw new Error('--devices must be 1 to 8 (RUNS_PER_WORKER is 8)');
  return { engine: values.engine, runs, devices, strict: values.strict };
}

/**
 * @typedef {{ macro: MacroName, device: number, open: number, dialog: boolean, pass: boolean, why: string, ms: number }} RunResult
 */

/**
 * Why the end state is not the task done, or '' when it is.
 * @param {string} state
 * @param {string[]} lines the run's log
 * @param {import('../dist/modules/devices/hosts/types.js').DeviceDriver} driver
 */
async function checkEndState(state, lines, driver) {
  if (state !== 'finished') {
    const last = [...lines].reverse().find((line) => line.startsWith('[stderr] ') && line.trim() !== '[stderr]') ?? '';
    return `${state}: ${last.replace('[stderr] ', '').slice(0, 160)}`;
  }
  const app = await driver.currentApp();
  const tree = await driver.uiTree();
  const title = tree.find((e) => e.resource_id === `${FEED}:id/title`)?.text;
  const save = tree.find((e) => e.resource_id === `${FEED}:id/save`);
  // What the screen in front shows, so a failure says where the macro ended up.
  const ended = `ended on ${app?.package ?? 'no app'} '${title ?? ''}', save control ${save ? `'${save.text}'` : 'absent'}`;
  const opened = lines.find((line) => line.startsWith('opened '));
  const hit = opened ? JSON.parse(opened.slice('opened '.length)) : null;
  // The coordinate macro also says what its blind "Not now" tap hit.
  const notNow = lines.find((line) => line.startsWith('not now tap hit '));
  if (hit?.element_id !== `post_${POST_INDEX}`) return `the post tap hit ${hit?.element_id ?? 'nothing'}; ${ended}${notNow ? `; ${notNow}` : ''}`;
  if (app?.package !== FEED || save?.text !== 'Saved') return `not saved: ${ended}`;
  await driver.pressKey('BACK');
  await driver.pressKey('BACK');
  const feed = await driver.uiTree();
  if (!feed.some((e) => e.text === POST_TITLE)) return 'the feed beneath does not show the 80th post';
  return '';
}

async function main() {
  const opts = options();
  const cleanups = cleanupStack();
  const target = benchTarget(opts.engine, 'locator-robustness');
  try {
    const { app, base } = await startServeLike(target, cleanups, 'locator-robustness');

    const { auth } = await signUpOverHttp(base, `bench-robust-${target.suffix}@example.com`, `pw-${target.suffix}-${target.suffix}`);
    const { key } = await request(base, 'POST', '/api/api-keys', { body: { name: 'robustness bench', scopes: ['macros:run', 'runs:read'] }, headers: auth });
    const headers = { 'x-api-key': key };
    /** @type {Record<MacroName, number>} */
    const macroIds = { coordinates: 0, locators: 0 };
    for (const name of MACROS) {
      const macro = await request(base, 'POST', '/api/macros', { body: { name: `Daily Feed by ${name}`, kind: 'python' }, headers: auth });
      const tree = [{ path: 'main.py', content: readFileSync(new URL(`robustness/${name}.py`, import.meta.url)), permissions: 0o644 }];
      const upload = { zip_file_base64: (await zipWorktree(tree)).toString('base64'), worktree_hash: worktreeHash(tree), entry_path: 'main.py' };
      await request(base, 'POST', `/api/macros/${macro.id}/code-snapshot`, { body: upload, headers });
      macroIds[name] = macro.id;
    }

    const { host, lifecycle } = app.modules.devices.services;
    const phones = await Promise.all(
      Array.from({ length: opts.devices }, async (_, i) => {
        const device = await request(base, 'POST', '/api/hosted/devices', { body: { name: `Robustness phone ${i + 1}` }, headers: auth });
        await request(base, 'POST', `/api/hosted/devices/${device.id}/start`, { headers: auth });
        await lifecycle.waitUntilReady(device.id, { timeoutMs: 30_000 });
        return { id: /** @type {number} */ (device.id), driver: await host.driver(device.id), opens: 0 };
      }),
    );

    // Pairs (coordinates, then locators) dealt to the phones in turn.
    /** @type {MacroName[][]} */
    const queues = phones.map(() => []);
    for (let pair = 0; pair < opts.runs; pair += 1) queues[pair % phones.length].push(...MACROS);

    /** @type {RunResult[]} */
    const results = [];
    const started = Date.now();
    let done = 0;
    await Promise.all(
      phones.map(async (phone, p) => {
        for (const macro of queues[p]) {
          await phone.driver.closeApp(FEED);
          phone.opens += 1; // each macro opens the app once
          const run = await request(base, 'POST', `/api/hosted/devices/${phone.id}/run`, { body: { macro_id: macroIds[macro] }, headers });
          /** @type {any} */
          let record = run;
          while (!['finished', 'failed', 'stopped'].includes(record.state)) {
            await sleep(250);
            record = await request(base, 'GET', `/api/hosted/runs/${run.id}`, { headers });
          }
          const logs = await request(base, 'GET', `/api/executions/${run.execution_id}/logs?max_lines=1000`, { headers });
          const why = await checkEndState(record.state, logs.lines, phone.driver);
          const ms = Date.parse(record.finished_at) - Date.parse(record.started_at);
          const dialog = phone.opens % 3 === 0;
          results.push({ macro, device: phone.id, open: phone.opens, dialog, pass: why === '', why, ms });
          done += 1;
          // The locator macro says when it handled the dialog: a check on the bench's own count.
          const handled = logs.lines.some((/** @type {string} */ line) => line.startsWith('handled interrupt'));
          const note = macro === 'locators' && handled !== dialog ? ` (dialog expected ${dialog}, handled ${handled})` : '';
          console.log(`${String(done).padStart(4)}/${opts.runs * 2} ${macro.padEnd(11)} phone ${p + 1} open ${String(phone.opens).padStart(3)}${dialog ? ' dialog' : '       '} ${round(ms / 1000, 2)} s ${why ? `FAIL ${why}` : 'pass'}${note}`);
        }
      }),
    );
    const wallSeconds = round((Date.now() - started) / 1000, 1);

    const summary = MACROS.map((macro) => {
      const mine = results.filter((r) => r.macro === macro);
      const passed = mine.filter((r) => r.pass);
      const withDialog = mine.filter((r) => r.dialog);
      const times = mine.map((r) => r.ms).sort((a, b) => a - b);
      const passTimes = passed.map((r) => r.ms).sort((a, b) => a - b);
      /** @type {Record<string, number>} */
      const reasons = {};
      for (const r of mine) if (!r.pass) reasons[r.why.replace(/\d+(\.\d+)? s\b/g, '# s')] = (reasons[r.why.replace(/\d+(\.\d+)? s\b/g, '# s')] ?? 0) + 1;
      return {
        macro,
        runs: mine.length,
        passed: passed.length,
        passRate: passed.length / Math.max(1, mine.length),
        dialogRuns: withDialog.length,
        dialogPassed: withDialog.filter((r) => r.pass).length,
        medianS: round(percentile(times, 50) / 1000, 2),
        p90S: round(percentile(times, 90) / 1000, 2),
        medianPassS: round(percentile(passTimes, 50) / 1000, 2),
        reasons,
      };
    });
    console.log(`\nlocator robustness on ${opts.engine}: Daily Feed, post 80 ("${POST_TITLE}"), ${opts.runs} runs of each macro on ${opts.devices} phones, SIM_SEED unset`);
    console.log(`${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end, ${wallSeconds} s in all`);
    printTable([
      ['macro', 'passed', 'pass rate', 'with the dialog', 'median run s', 'p90 run s', 'median passing run s'],
      ...summary.map((s) => [s.macro, `${s.passed}/${s.runs}`, `${round(s.passRate * 100, 1)} %`, `${s.dialogPassed}/${s.dialogRuns}`, String(s.medianS), String(s.p90S), String(s.medianPassS)]),
    ]);
    const [coords, locs] = summary;
    console.log(`\nmedian run time, locators / coordinates: ${round(locs.medianS / coords.medianS, 2)}×`);
    for (const s of summary) for (const [why, count] of Object.entries(s.reasons)) console.log(`${s.macro} failed ${count}×: ${why}`);
    const ok = locs.passRate >= GOAL_PASS_RATE;
    console.log(`locators pass ≥ ${GOAL_PASS_RATE * 100} %: ${ok ? 'PASS' : 'MISS'} (${locs.passed}/${locs.runs})`);
    console.log(JSON.stringify({ bench: 'locator-robustness', engine: opts.engine, runs: opts.runs, devices: opts.devices, wall_s: wallSeconds, load: loadavg(), summary }));
    if (opts.strict && !ok) process.exitCode = 1;
  } finally {
    await cleanups.run();
  }
}

runMain('locator-robustness.js', main);
