#!/usr/bin/env node
// @ts-check
// The recorder (issue 33, decisions.md §18, "Measured"): the Daily Feed task of the locators
// issue (open Daily Feed from the home screen, dismiss "Rate Daily Feed", scroll to the 80th
// post, open it, save it) recorded once through the recorder's routes, as the console sends a
// person's clicks, drags and key presses; saved as a block macro and as a Python macro; each
// replayed --runs times as a cloud run on the same `sim` phone with SIM_SEED unset (each run
// meets its own loading times), through the real app from dist/ with runs on their own thread,
// as `serve` runs them.
//
// The person looks at the screen (the UI tree stands in for their eyes) before each input: taps
// the Daily Feed icon; the dialog comes (the recording's open is made the phone's third) and they
// tap "Not now"; they wait for the feed, drag it up until the 80th post shows, tap it, tap "Save
// post". Saving turns the "Not now" tap into an interrupt and the drags into scroll_to
// (docs/recorder.md). Before each replay the app is swiped away and the home screen is in front
// (untimed); runs alternate, so each macro meets the dialog on about a third of its runs. A
// replay passes only on its end state: finished; its trace shows a tap on the 80th post's
// headline that hit a post row; the post is saved; BACK twice shows the feed with that headline.
//
// --literal adds a third macro for comparison: the steps exactly as recorded, as a block program
// (the "Not now" tap a plain tap, the drags plain swipes), what a recorder without §16's
// waiting would replay.
//
// --console records in the console itself instead (bench/lib/recorder-task.js): Debian's Chromium
// clicks and drags on the device drawer's live view, then saves through the console's Save dialog.
//
// Usage (after `npm run build`): node bench/recorder.js [--engine sqlite|postgres] [--runs N] [--literal | --console]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { FEED_POSTS } from '../dist/modules/devices/hosts/sim/apps/daily-feed/posts.js';
import { signUpOverHttp } from './lib/engine.js';
import { startServeLike } from './lib/serve-like.js';
import { benchTarget, checkEngine, cleanupStack, percentile, printTable, request, round, runMain } from './lib.js';
import { recordInConsole, recordTask } from './lib/recorder-task.js';

const FEED = 'com.example.feed';
const POST_INDEX = 79; // the 80th post
const POST_TITLE = FEED_POSTS[POST_INDEX].title;
const BAND = { top: 252, bottom: 2340 }; // the feed's scrolling band
const KINDS = /** @type {const} */ (['block', 'python', 'literal']);
/** @typedef {(typeof KINDS)[number]} Kind */
/** @typedef {import('../dist/modules/devices/hosts/types.js').DeviceDriver} Driver */
/** @typedef {import('../dist/modules/devices/hosts/types.js').UiElement} UiElement */

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

function options() {
  const { values } = parseArgs({ options: { engine: { type: 'string', default: 'sqlite' }, runs: { type: 'string', default: '20' }, literal: { type: 'boolean', default: false }, console: { type: 'boolean', default: false } } });
  if (values.literal && values.console) throw new Error('--literal needs the recording through the routes; leave out --console');
  checkEngine(values.engine);
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number ≥ 1');
  return { engine: values.engine, runs, inConsole: values.console, kinds: KINDS.filter((kind) => kind !== 'literal' || values.literal) };
}

/** A recorded step exactly as it was: a tap on its selector (or point), a swipe as dragged. */
const literalStep = (/** @type {any} */ s) =>
  s.action === 'swipe' ? { type: 'swipe', from: s.from, to: s.to, ms: s.ms } : { type: 'tap', ...(s.selector ? { selector: s.selector } : { x: s.x, y: s.y }) };

/** The tap on the 80th post in a trace: its selector named the post's headline and it hit the post's row. */
const postTap = (/** @type {any} */ trace) =>
  (trace.steps ?? []).find((/** @type {any} */ s) => s.action === 'tap' && s.outcome === 'ok' && s.args?.selector?.text === POST_TITLE && s.element?.resource_id === `${FEED}:id/post_row`);

/**
 * The run's trace once its last steps are in: a Python run's last batch of steps may land a
 * moment after the run reads `finished`, so this waits (at most 5 s) for the tap on the post.
 * @param {string} base @param {Record<string, string>} auth @param {string} executionId
 */
async function settledTrace(base, auth, executionId) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const trace = await request(base, 'GET', `/api/executions/${executionId}/trace`, { headers: auth });
    if (postTap(trace) || Date.now() > deadline) return trace;
    await sleep(100);
  }
}

/**
 * Why the replay's end state is not the task done, or '' when it is.
 * @param {any} record the cloud run @param {any} trace its trace @param {Driver} driver
 */
async function checkEndState(record, trace, driver) {
  if (record.state !== 'finished') return `${record.state}: ${(record.state_message ?? '').slice(0, 200)}`;
  if (!postTap(trace)) {
    const tapped = (trace.steps ?? []).filter((/** @type {any} */ s) => s.action === 'tap').map((/** @type {any} */ s) => `${JSON.stringify(s.args?.selector ?? s.args)} ${s.outcome}`);
    return `no tap on the 80th post in the trace (taps: ${tapped.join(', ').slice(0, 300)})`;
  }
  const app = await driver.currentApp();
  const tree = await driver.uiTree();
  const save = tree.find((e) => e.resource_id === `${FEED}:id/save`);
  if (app?.package !== FEED || save?.text !== 'Saved') return `not saved: ended on ${app?.package ?? 'no app'}, save control ${save ? `'${save.text}'` : 'absent'}`;
  await driver.pressKey('BACK');
  await driver.pressKey('BACK');
  if (!(await driver.uiTree()).some((e) => e.text === POST_TITLE)) return 'the feed beneath does not show the 80th post';
  return '';
}

async function main() {
  const opts = options();
  const cleanups = cleanupStack();
  const target = benchTarget(opts.engine, 'recorder');
  try {
    const { app, base } = await startServeLike(target, cleanups, 'recorder');

    const { auth } = await signUpOverHttp(base, `bench-recorder-${target.suffix}@example.com`, `pw-${target.suffix}-${target.suffix}`);
    const token = auth.authorization.slice('Bearer '.length);
    const device = await request(base, 'POST', '/api/hosted/devices', { body: { name: 'Recorder phone' }, headers: auth });
    await request(base, 'POST', `/api/hosted/devices/${device.id}/start`, { headers: auth });
    await app.modules.devices.services.lifecycle.waitUntilReady(device.id, { timeoutMs: 30_000 });
    const driver = await app.modules.devices.services.host.driver(device.id);

    // Two opens first, so the recording's open is the third: the dialog comes while recording.
    let opens = 0;
    for (let i = 0; i < 2; i += 1) {
      await driver.openApp(FEED);
      await driver.closeApp(FEED);
      opens += 1;
    }
    await driver.pressKey('HOME');
    const recordStarted = Date.now();
    /** @type {Record<Kind, any>} */
    const macros = { block: null, python: null, literal: null };
    let steps = [];
    let swipes = 0;
    const task = { feed: FEED, postTitle: POST_TITLE, band: BAND };
    if (opts.inConsole) {
      const done = await recordInConsole({ base, token, deviceId: device.id, deviceName: device.name, driver, ...task });
      swipes = done.swipes;
      for (const kind of /** @type {const} */ (['block', 'python'])) macros[kind] = await request(base, 'GET', `/api/macros/${done.macroIds[kind]}`, { headers: auth });
      steps = Array.from({ length: done.steps });
    } else {
      const done = await recordTask(base, auth, device.id, driver, task);
      ({ steps, swipes } = done);
      for (const kind of /** @type {const} */ (['block', 'python'])) macros[kind] = await request(base, 'POST', `/api/hosted/recordings/${done.rid}/save`, { body: { name: `Daily Feed, recorded (${kind})`, kind }, headers: auth });
      macros.literal = await request(base, 'POST', '/api/macros', { body: { name: 'Daily Feed, as recorded', kind: 'block', blocks: { version: 1, steps: steps.map(literalStep) } }, headers: auth });
      await request(base, 'POST', `/api/hosted/recordings/${done.rid}/stop`, { headers: auth });
      console.log(`recorded steps: ${steps.map((/** @type {any} */ s) => `${s.action}${s.selector ? ` ${JSON.stringify(s.selector)}` : ''}${s.interrupt ? ' (interrupt)' : ''}`).join('; ')}`);
    }
    opens += 1;
    const recordSeconds = round((Date.now() - recordStarted) / 1000, 1);
    console.log(`recorded ${steps.length} steps ${opts.inConsole ? 'in the console' : 'through the routes'} in ${recordSeconds} s (${swipes} swipes)`);
    console.log(`block program: ${JSON.stringify(macros.block.blocks)}`);

    /** @type {{ kind: Kind, open: number, dialog: boolean, pass: boolean, why: string, ms: number }[]} */
    const results = [];
    for (let i = 0; i < opts.runs; i += 1) {
      // Three macros a round would put each on the same open of every three: one more open a
      // round moves the dialog from macro to macro.
      if (opts.kinds.length % 3 === 0 && i > 0) {
        await driver.openApp(FEED);
        opens += 1;
      }
      for (const kind of opts.kinds) {
        await driver.closeApp(FEED);
        await driver.pressKey('HOME');
        opens += 1;
        const run = await request(base, 'POST', `/api/hosted/devices/${device.id}/run`, { body: { macro_id: macros[kind].id }, headers: auth });
        let record = run;
        while (!['finished', 'failed', 'stopped'].includes(record.state)) {
          await sleep(200);
          record = await request(base, 'GET', `/api/hosted/runs/${run.id}`, { headers: auth });
        }
        const trace = await settledTrace(base, auth, run.execution_id);
        const why = await checkEndState(record, trace, driver);
        const ms = Date.parse(record.finished_at) - Date.parse(record.started_at);
        const dialog = opens % 3 === 0;
        // The trace says when the interrupt dismissed the dialog: a check on the bench's own count.
        const handled = (trace.steps ?? []).some((/** @type {any} */ s) => (s.interrupts ?? []).length > 0);
        results.push({ kind, open: opens, dialog, pass: why === '', why, ms });
        const note = kind !== 'literal' && handled !== dialog ? ` (dialog expected ${dialog}, handled ${handled})` : '';
        console.log(`${String(results.length).padStart(3)}/${opts.runs * opts.kinds.length} ${kind.padEnd(6)} open ${String(opens).padStart(3)}${dialog ? ' dialog' : '       '} ${round(ms / 1000, 2)} s ${why ? `FAIL ${why}` : 'pass'}${note}`);
      }
    }

    const summary = opts.kinds.map((kind) => {
      const mine = results.filter((r) => r.kind === kind);
      const passed = mine.filter((r) => r.pass);
      const withDialog = mine.filter((r) => r.dialog);
      const times = mine.map((r) => r.ms).sort((a, b) => a - b);
      return {
        kind,
        runs: mine.length,
        passed: passed.length,
        passRate: passed.length / Math.max(1, mine.length),
        dialogRuns: withDialog.length,
        dialogPassed: withDialog.filter((r) => r.pass).length,
        medianS: round(percentile(times, 50) / 1000, 2),
        p90S: round(percentile(times, 90) / 1000, 2),
        failures: mine.filter((r) => !r.pass).map((r) => r.why),
      };
    });
    console.log(`\nrecorder on ${opts.engine}: Daily Feed task recorded once ${opts.inConsole ? 'in the console' : 'through the routes'} (${steps.length} steps), replayed ${opts.runs} times as ${opts.kinds.join(', ')} macros, SIM_SEED unset`);
    console.log(`${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`);
    printTable([
      ['macro', 'passed', 'pass rate', 'with the dialog', 'median run s', 'p90 run s'],
      ...summary.map((s) => [s.kind, `${s.passed}/${s.runs}`, `${round(s.passRate * 100, 1)} %`, `${s.dialogPassed}/${s.dialogRuns}`, String(s.medianS), String(s.p90S)]),
    ]);
    for (const s of summary) for (const why of s.failures) console.log(`${s.kind} failed: ${why}`);
    console.log(JSON.stringify({ bench: 'recorder', engine: opts.engine, runs: opts.runs, record_s: recordSeconds, steps: steps.length, swipes, load: loadavg(), summary }));
  } finally {
    await cleanups.run();
  }
}

runMain('recorder.js', main);
