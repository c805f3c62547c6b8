// The agent when things go wrong, against a scripted model: an endpoint that errors or is too
// slow (three failures in a row end the session), an unknown tool, bad and unparsable
// arguments, a reply without a tool call, the step limit, the working-time limit, credits
// charged per call and the allowance ending a running session, a worker that dies, and no
// secret ever in a prompt or a message.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claimDueJobs } from '../../../src/db/jobs/leases.js';
import { authoringSessionJob } from '../../../src/modules/authoring/index.js';
import { createKey } from '../../helpers/users.js';
import { removeTempDirs } from '../runs/helpers/runner.js';
import { allMessages, type AuthoringWorld, authoringWorld, closeAuthoringWorld, cloudDevice, credits, getSession, sessionInState, setCreditLimit, startSession } from './helpers/authoring-world.js';
import { lastToolResult, type ReceivedRequest } from './helpers/scripted-model.js';

let w: AuthoringWorld;
beforeAll(async () => {
  w = await authoringWorld({ AUTHOR_LLM_TIMEOUT_S: '1', AUTHOR_MAX_STEPS: '6', AUTHOR_LLM_API_KEY: 'sk-model-key-that-must-stay-home-1234' });
});
afterAll(async () => {
  await closeAuthoringWorld(w);
  removeTempDirs();
});

const ended = (id: number) => sessionInState(w, id, ['done', 'failed', 'stopped']);

test('three endpoint failures in a row (errors and a reply slower than AUTHOR_LLM_TIMEOUT_S) end the session failed, saying why; one success between resets the count', async () => {
  const first = await startSession(w, { goal: 'fails' }, [
    { status: 500, error: 'model overloaded' },
    { status: 503, error: 'still overloaded' },
    { calls: [{ name: 'file_list' }] },
    { status: 500, error: 'overloaded again' },
    { delayMs: 1600, calls: [{ name: 'file_list' }] },
    { status: 429, error: 'rate limited' },
  ]);
  const failed = await ended(first.id);
  expect(failed.state).toBe('failed');
  expect(failed.state_message).toMatch(/^The model endpoint failed 3 times in a row; the last error: .*429/);
  // Only the one answered call was charged: 500 tokens → 1 credit.
  expect(failed.credits_used).toBe(1);
  expect((await allMessages(w, first.id)).messages.at(-1)?.text).toContain('Session failed: The model endpoint failed 3 times');
});

test('an unknown tool, bad arguments and unparsable arguments come back to the model as errors it reads; a reply without a tool call is kept and the model asked to go on', async () => {
  const read: string[] = [];
  const note = (request: ReceivedRequest) => {
    read.push(lastToolResult(request));
  };
  const session = await startSession(w, { goal: 'mistakes' }, [
    { calls: [{ name: 'delete_everything', args: {} }] },
    (r) => (note(r), { calls: [{ name: 'file_write', args: { path: '../escape.py', content: 'x' } }] }),
    (r) => (note(r), { calls: [{ name: 'file_write', args: { path: 'main.py' } }] }),
    (r) => (note(r), { calls: [{ name: 'file_read', args: '{"path": ' }] }),
    (r) => (note(r), { text: 'I think I am done.' }),
    (r) => {
      const last = r.body.messages.at(-1);
      read.push(`${last?.role}: ${String(last?.content)}`);
      return { calls: [{ name: 'finish', args: { summary: 'ok' } }] };
    },
  ]);
  expect((await ended(session.id)).state).toBe('done');
  expect(read[0]).toMatch(/^Error: there is no tool named "delete_everything". The tools are: device_screenshot, /);
  expect(read[1]).toMatch(/^Error: cannot write \.\.\/escape\.py: path must be relative/);
  expect(read[2]).toMatch(/^Error: bad arguments for file_write: .*content/);
  expect(read[3]).toBe('Error: the arguments of file_read are not valid JSON.');
  expect(read[4]).toMatch(/^user: Continue by calling one of the tools/);
  const texts = (await allMessages(w, session.id)).messages.map((m) => `${m.role}: ${m.text}`);
  expect(texts).toContain('agent: I think I am done.');
  expect(texts).toContain('tool: delete_everything: error: there is no tool named "delete_everything". The tools are: device_screenshot, device_ui_tree, device_read_text, device_find, device_find_image, device_tap, device_long_press, device_swipe, device_type, device_key, device_wait_for, device_scroll_to, app_list, app_open, app_close, map_get, file_write, file_read, file_list, run_files, ask_user, finish.');
});

test('AUTHOR_MAX_STEPS model calls end the session failed, saying which limit', async () => {
  const asked = w.model.requests.length;
  const session = await startSession(w, { goal: 'loops' }, Array.from({ length: 6 }, () => ({ calls: [{ name: 'file_list' }] })));
  const failed = await ended(session.id);
  expect(failed).toMatchObject({ state: 'failed', state_message: 'The session reached its limit of 6 model calls (AUTHOR_MAX_STEPS) without finishing.' });
  expect(w.model.requests.length - asked).toBe(6);
});

test('credits are charged per call as it returns, and a session past the allowance ends failed with credits_exhausted; a new one answers 402', async () => {
  const before = (await credits(w)).used;
  await setCreditLimit(w, w.user.id, before + 3);
  const asked = w.model.requests.length;
  const session = await startSession(w, { goal: 'expensive' }, [
    { calls: [{ name: 'file_list' }], tokens: 1500 },
    { calls: [{ name: 'file_list' }], tokens: 1001 },
  ]);
  const failed = await ended(session.id);
  // 1500 + 1001 = 2501 tokens → 3 credits: the allowance is used up before the third call.
  expect(failed.state).toBe('failed');
  expect(failed.state_message).toMatch(/^credits_exhausted: This account has used its \d+ AI credits/);
  expect(failed.credits_used).toBe(3);
  expect((await credits(w)).used).toBe(before + 3);
  const refused = await w.t.app.inject({ method: 'POST', url: '/api/authoring/sessions', headers: w.user.auth, payload: { goal: 'more' } });
  expect(refused.statusCode).toBe(402);
  expect(refused.json().details.code).toBe('credits_exhausted');
  // No third call was made.
  expect(w.model.requests.length - asked).toBe(2);
  await setCreditLimit(w, w.user.id, null);
});

describe('with no worker running until the test says so', () => {
  let quiet: AuthoringWorld;
  beforeAll(async () => {
    quiet = await authoringWorld({}, { workers: false });
  });
  afterAll(async () => closeAuthoringWorld(quiet));

  test('AUTHOR_MAX_MINUTES: a session that has worked 20 minutes (time spent waiting for answers does not count) ends failed before its next model call', async () => {
    const session = await startSession(quiet, { goal: 'slow work' });
    await quiet.t.db.kysely.updateTable('authoring_sessions').set({ worked_ms: 20 * 60_000 }).where('id', '=', session.id).execute();
    await quiet.t.app.modules.authoring.workers[0]!.jobs.runOnce();
    expect(await getSession(quiet, session.id)).toMatchObject({ state: 'failed', state_message: 'The session reached its limit of 20 minutes of work (AUTHOR_MAX_MINUTES) without finishing.' });
    expect(quiet.model.requests).toEqual([]);
  });

  test('a worker that dies mid-session: once its lease lapses, a worker ends the session failed with a message and frees the device', async () => {
    const deviceId = await cloudDevice(quiet);
    const session = await startSession(quiet, { goal: 'orphan', device_id: deviceId });
    const kind = authoringSessionJob(quiet.t.config.authoring);
    // A worker claims the session, takes its device, and dies.
    const [lease] = await claimDueJobs(quiet.t.db, kind, { token: 'dead-worker:1', now: quiet.t.clock.now(), limit: 5 });
    expect(lease?.id).toBe(session.id);
    await quiet.t.db.kysely.insertInto('device_leases').values({ device_id: deviceId, lease_id: 'lease_dead', user_id: quiet.user.id, key_id: null, expires_at: quiet.t.clock.now() + 600_000, created_at: 0, updated_at: 0 }).execute();
    await quiet.t.db.kysely.updateTable('authoring_sessions').set({ lease_id: 'lease_dead' }).where('id', '=', session.id).execute();
    const worker = quiet.t.app.modules.authoring.workers[0]!;
    // While the lease is live nothing happens to it.
    await worker.jobs.runOnce();
    expect((await getSession(quiet, session.id)).state).toBe('working');
    quiet.t.clock.advance(31_000);
    await worker.jobs.runOnce();
    const failed = await getSession(quiet, session.id);
    expect(failed.state).toBe('failed');
    expect(failed.state_message).toMatch(/^The worker running this session stopped or crashed/);
    expect((await allMessages(quiet, session.id)).messages.at(-1)?.text).toMatch(/^Session failed: The worker running this session stopped/);
    expect(await quiet.t.db.kysely.selectFrom('device_leases').select('lease_id').where('device_id', '=', deviceId).execute()).toEqual([]);
    // It is never taken up again.
    expect(await worker.jobs.runOnce()).toBe(0);
    expect(quiet.model.requests).toEqual([]);
  });
});

test('no secret reaches the model or the messages: keys in the goal, the run token and a key a macro prints, the model key', async () => {
  const deviceId = await cloudDevice(w);
  const { key } = await createKey(w.t.app, w.user);
  // The macro prints secrets it finds at run time (the model never saw them): its run token,
  // a key and proxy credentials it decodes.
  const hidden = Buffer.from(`key ${key}\nproxy http://bob:hunter2@proxy.example:8080`).toString('base64');
  const leaky = `import base64, os\nprint("token", os.environ["SVC_RUN_TOKEN"])\nprint(base64.b64decode("${hidden}").decode())\n`;
  const session = await startSession(w, { goal: `Use my key ${key} and session ${w.user.token} to log in`, device_id: deviceId }, [
    { calls: [{ name: 'file_write', args: { path: 'main.py', content: leaky } }] },
    { calls: [{ name: 'run_files' }] },
    { calls: [{ name: 'finish', args: { summary: 'done' } }] },
  ]);
  expect((await ended(session.id)).state).toBe('done');
  const sent = JSON.stringify(w.model.requests.map((r) => r.body));
  const stored = JSON.stringify((await allMessages(w, session.id)).messages);
  const runTail = w.model.requests.map((r) => lastToolResult(r)).find((t) => t.includes('log_tail')) ?? '';
  expect(runTail).toContain('token [redacted run token]');
  expect(runTail).toContain('key [redacted key]');
  expect(runTail).toContain('proxy http://[redacted]@proxy.example:8080');
  for (const text of [sent, stored]) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(w.user.token);
    expect(text).not.toMatch(/svr_[0-9a-f]{64}/);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('sk-model-key-that-must-stay-home-1234');
  }
  // The model key travels only where it belongs: the Authorization header.
  expect(w.model.requests.at(-1)?.headers.authorization).toBe('Bearer sk-model-key-that-must-stay-home-1234');
});
