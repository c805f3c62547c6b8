#!/usr/bin/env node
// @ts-check
// The authoring agent on tasks with a checked outcome (issue 21): for each task of
// bench/authoring/tasks.js, a fresh device, a session with the task's goal against the model
// endpoint, the device's FINAL state checked (as AndroidWorld checks tasks), and then the
// macro the session wrote replayed --replays times as plain cloud runs, without the model
// (the meter proves no model call is made), each from a fresh device, each checked the same way.
// Reported per task: success, model calls, tokens (as the endpoint reports them), credits
// (as the service charged them), working time, replays passed.
//
// The endpoint is AUTHOR_LLM_URL (with AUTHOR_LLM_MODEL, AUTHOR_LLM_API_KEY), or, when it is
// unset or --scripted is given, bench/authoring/scripted-model.js: a replay of correct
// scripts (one task deliberately wrong) that proves the harness, not any model's skill.
//
// Usage (after `npm run build`): node bench/authoring.js [--scripted] [--tasks id,id] [--replays 10]
//   [--max-steps 40] [--max-minutes 20] [--json file]
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startMeter } from './authoring/meter.js';
import { startScriptedModel } from './authoring/scripted-model.js';
import { TASKS } from './authoring/tasks.js';
import { startWorld, until } from './authoring/world.js';
import { cleanupStack, printTable, request, round, runMain } from './lib.js';

const { values } = parseArgs({
  options: {
    scripted: { type: 'boolean', default: false },
    tasks: { type: 'string' },
    replays: { type: 'string', default: '10' },
    'max-steps': { type: 'string', default: '40' },
    'max-minutes': { type: 'string', default: '20' },
    json: { type: 'string' },
  },
});
const replays = Number(values.replays);
if (!Number.isInteger(replays) || replays < 0) throw new Error('--replays must be a whole number ≥ 0');
const wanted = values.tasks ? values.tasks.split(',').map((s) => s.trim()) : null;
const tasks = wanted ? TASKS.filter((t) => wanted.includes(t.id)) : TASKS;
if (wanted && tasks.length !== wanted.length) throw new Error(`unknown task ids: ${wanted.filter((id) => !TASKS.some((t) => t.id === id)).join(', ')}`);
const scripted = values.scripted || !process.env.AUTHOR_LLM_URL;
const ENDED = ['done', 'failed', 'stopped'];
const RUN_ENDED = ['finished', 'failed', 'stopped'];
/** What a real model is told when it asks: the benchmark has nobody to answer. */
const NOBODY = 'Nobody can answer during this benchmark: decide yourself from the goal and finish.';

runMain('authoring.js', async () => {
  const cleanups = cleanupStack();
  try {
    let upstream = process.env.AUTHOR_LLM_URL ?? '';
    let model = process.env.AUTHOR_LLM_MODEL ?? '';
    if (scripted) {
      const fake = await startScriptedModel(TASKS);
      cleanups.push(() => fake.close());
      upstream = fake.url;
      model = 'scripted';
    }
    const meter = await startMeter(upstream);
    cleanups.push(() => meter.close());
    const world = await startWorld({ llmUrl: meter.url, model, apiKey: scripted ? undefined : process.env.AUTHOR_LLM_API_KEY, maxSteps: Number(values['max-steps']), maxMinutes: Number(values['max-minutes']) }, cleanups);
    const load = loadavg();
    const results = [];
    for (const task of tasks) {
      const r = await runTask(world, meter, task);
      results.push(r);
      console.error(`${task.id}: ${r.success ? 'passed' : `FAILED (${r.why}; last run: ${r.lastRun})`}; ${r.modelCalls} calls, ${r.tokens} tokens, ${r.credits} credits; replays ${r.replaysPassed}/${replays}`);
    }
    report(results, { endpoint: scripted ? 'scripted model (bench/authoring/scripted-model.js)' : `${upstream} (${model})`, load, loadAfter: loadavg() });
  } finally {
    await cleanups.run();
  }
});

/**
 * @param {Awaited<ReturnType<typeof startWorld>>} world
 * @param {Awaited<ReturnType<typeof startMeter>>} meter
 * @param {import('./authoring/tasks.js').Task} task
 */
async function runTask(world, meter, task) {
  const { base, session: auth, withKey, deviceId } = world;
  await world.reset();
  meter.take();
  const started = Date.now();
  const created = await request(base, 'POST', '/api/authoring/sessions', { headers: auth, body: { goal: task.goal, device_id: deviceId } });
  let session = created;
  let questions = 0;
  await until(
    async () => {
      session = await request(base, 'GET', `/api/authoring/sessions/${created.id}`, { headers: auth });
      if (session.state === 'waiting_for_answer') {
        questions++;
        await request(base, 'POST', `/api/authoring/sessions/${created.id}/answer`, { headers: auth, body: { answer: NOBODY } });
        return false;
      }
      return ENDED.includes(session.state);
    },
    (Number(values['max-minutes']) + 1) * 60_000,
    `session ${created.id} to end`,
  );
  const seconds = (Date.now() - started) / 1000;
  const usage = meter.take();
  const why = task.check(await world.state());
  const success = session.state === 'done' && why === null;
  // What the session's last run said: the first thing to read when a task fails.
  const { messages } = await request(base, 'GET', `/api/authoring/sessions/${created.id}/messages`, { headers: auth });
  const lastRun = [...messages].reverse().find((/** @type {{ text: string }} */ m) => m.text.startsWith('run_files:'))?.text ?? null;

  // The macro alone, without the model: fresh device, a cloud run of the session's macro, the same check.
  let replaysPassed = 0;
  const replayFailures = new Set();
  /** @type {number[]} */
  const replaySeconds = [];
  if (session.state === 'done' && session.macro_id !== null) {
    for (let i = 0; i < replays; i++) {
      await world.reset();
      const replayStarted = Date.now();
      const run = await request(base, 'POST', `/api/hosted/devices/${deviceId}/run`, { headers: withKey, body: { macro_id: session.macro_id } });
      let ended = run;
      await until(async () => RUN_ENDED.includes((ended = await request(base, 'GET', `/api/hosted/runs/${run.id}`, { headers: withKey })).state), 120_000, `replay run ${run.id}`);
      replaySeconds.push((Date.now() - replayStarted) / 1000);
      const replayWhy = ended.state === 'finished' ? task.check(await world.state()) : `the run ${ended.state}: ${ended.error_message ?? ''}`;
      if (replayWhy === null) replaysPassed++;
      else replayFailures.add(replayWhy);
    }
  }
  const replayCalls = meter.take().calls;
  if (replayCalls !== 0) throw new Error(`${task.id}: the replays made ${replayCalls} model calls; they must run without the model`);
  return {
    id: task.id,
    app: task.app,
    state: session.state,
    stateMessage: session.state_message,
    success,
    why: session.state !== 'done' ? `session ${session.state}: ${session.state_message ?? ''}` : why,
    modelCalls: usage.calls,
    endpointErrors: usage.errors,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    tokens: usage.promptTokens + usage.completionTokens,
    callsWithoutUsage: usage.withoutUsage,
    credits: session.credits_used,
    questions,
    lastRun,
    seconds: round(seconds, 1),
    replaysPassed,
    // The baseline in the same run: the written macro doing the task alone, as a cloud run.
    replaySeconds: replaySeconds.length ? round(replaySeconds.reduce((a, b) => a + b, 0) / replaySeconds.length, 2) : null,
    replays: session.state === 'done' ? replays : 0,
    replayFailures: [...replayFailures],
  };
}

/**
 * @param {Awaited<ReturnType<typeof runTask>>[]} results
 * @param {{ endpoint: string, load: number[], loadAfter: number[] }} meta
 */
function report(results, meta) {
  const n = results.length;
  const sum = (/** @type {(r: typeof results[number]) => number} */ f) => results.reduce((a, r) => a + f(r), 0);
  const solid = results.filter((r) => r.replays > 0 && r.replaysPassed === r.replays).length;
  const summary = {
    endpoint: meta.endpoint,
    tasks: n,
    succeeded: results.filter((r) => r.success).length,
    successRate: round(results.filter((r) => r.success).length / n, 3),
    macrosPassingEveryReplay: solid,
    replaysPerMacro: replays,
    meanModelCalls: round(sum((r) => r.modelCalls) / n, 1),
    meanTokens: Math.round(sum((r) => r.tokens) / n),
    meanCredits: round(sum((r) => r.credits) / n, 1),
    totalCredits: sum((r) => r.credits),
    meanSeconds: round(sum((r) => r.seconds) / n, 1),
    // Authoring a macro against running it: the session's working time over one replay's, tasks with replays.
    authoringOverReplay: (() => {
      const both = results.filter((r) => r.replaySeconds);
      return both.length ? round(both.reduce((a, r) => a + r.seconds / /** @type {number} */ (r.replaySeconds), 0) / both.length, 1) : null;
    })(),
    machine: { cpus: cpus().length, loadavgBefore: meta.load.map((l) => round(l, 2)), loadavgAfter: meta.loadAfter.map((l) => round(l, 2)) },
  };
  printTable([
    ['task', 'result', 'calls', 'tokens', 'credits', 'session s', 'replay s', 'replays passed', 'why not'],
    ...results.map((r) => [r.id, r.success ? 'pass' : 'FAIL', String(r.modelCalls), String(r.tokens), String(r.credits), String(r.seconds), String(r.replaySeconds ?? '—'), `${r.replaysPassed}/${r.replays}`, r.why ?? r.replayFailures.join('; ')]),
  ], [0, 1, 8]);
  console.log('');
  console.log(JSON.stringify(summary, null, 2));
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ summary, results }, null, 2)}\n`);
}
