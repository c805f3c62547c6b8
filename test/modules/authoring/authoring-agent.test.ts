// The agent at work against a scripted model, with the app's own workers and real cloud runs
// of real Python on the simulated demo app: a session that looks, writes a macro, runs it,
// sees it fail, fixes it and finishes; a question and its answer; a stop mid-session; the
// session's lease keeping other callers off its device.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createKey, withKey } from '../../helpers/users.js';
import { removeTempDirs } from '../runs/helpers/runner.js';
import { allMessages, type AuthoringWorld, authoringWorld, closeAuthoringWorld, cloudDevice, credits, getSession, sessionInState, startSession } from './helpers/authoring-world.js';
import { useExpecting } from './helpers/expecting.js';

let w: AuthoringWorld;
beforeAll(async () => {
  w = await authoringWorld();
});
afterAll(async () => {
  await closeAuthoringWorld(w);
  removeTempDirs();
});

const BUGGY = `import svc_device as d
d.open_app("com.example.shop")
d.tap_element("row_espresso")
`;
const FIXED = `import svc_device as d
d.open_app("com.example.shop")
d.tap_element("row_beans")
d.wait(200)
if d.find_text("Add to cart") is None:
    raise SystemExit("the product page did not open")
d.tap_text("Add to cart")
d.log("beans in the cart")
`;

/** What the model read that the script did not expect; each test ends by asserting it is empty. */
/** Checks what the model read last, then answers with the next step. */
const expecting = useExpecting();

test('a session looks at the demo app, writes a macro, runs it, sees it fail, fixes it and finishes done with the files; the macro holds the code', async () => {
  const deviceId = await cloudDevice(w);
  const session = await startSession(w, { goal: 'Add the espresso beans to the cart', device_id: deviceId }, [
    { text: 'Let me open the shop.', calls: [{ name: 'app_open', args: { package: 'com.example.shop' } }], tokens: 1200 },
    { calls: [{ name: 'device_ui_tree' }], tokens: 900 },
    expecting((r) => expect(r).toContain('row_beans'), { calls: [{ name: 'file_write', args: { path: 'main.py', content: BUGGY } }] }),
    { calls: [{ name: 'run_files' }] },
    expecting(
      (r) => {
        const run = JSON.parse(r);
        expect(run.state).toBe('failed');
        expect(run.exit_code).not.toBe(0);
        expect(run.log_tail.join('\n')).toContain('row_espresso');
        // The step it failed on, from the run's trace, as the person sees it on the run's page.
        expect(run.failed_step).toMatchObject({ seq: 2, action: 'tap', args: { element_id: 'row_espresso' }, outcome: 'error', error: { code: expect.any(String) } });
        expect(run.failed_step.frame_before).toBeUndefined();
      },
      { calls: [{ name: 'file_write', args: { path: 'main.py', content: FIXED } }] },
    ),
    { calls: [{ name: 'run_files' }] },
    expecting(
      (r) => {
        const run = JSON.parse(r);
        expect(run).toMatchObject({ state: 'finished', exit_code: 0, error_message: null });
        expect(run.log_tail).toContain('beans in the cart');
      },
      { calls: [{ name: 'finish', args: { summary: 'The macro adds the espresso beans to the cart.' } }] },
    ),
  ]);
  const done = await sessionInState(w, session.id, ['done', 'failed'], 60_000);
  expect(done.state, JSON.stringify(done)).toBe('done');
  expect(done.files).toEqual([{ path: 'main.py', content: FIXED }]);
  // 1200 + 900 + 5 × 500 tokens = 4600 → 5 credits, charged to the month as well.
  expect(done.credits_used).toBe(5);
  expect((await credits(w)).used).toBeGreaterThanOrEqual(5);
  const { messages } = await allMessages(w, session.id);
  const texts = messages.map((m) => `${m.role}: ${m.text}`);
  expect(texts[0]).toBe('agent: Let me open the shop.');
  expect(texts).toContain('tool: app_open: Opened com.example.shop.');
  expect(texts.filter((t) => t.startsWith('tool: run_files: run cr_'))).toHaveLength(2);
  expect(texts.at(-1)).toBe('agent: The macro adds the espresso beans to the cart.');
  expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
  // The macro's code is the fixed project, as code sync installed it.
  const code = await w.t.app.inject({ url: `/api/macros/${session.macro_id}/code-state`, headers: withKey((await createKey(w.t.app, w.user)).key) });
  expect(code.statusCode, code.body).toBe(200);
  expect(code.json().entry_path).toBe('main.py');
  // The device is free again: its lease ended with the session.
  expect(await w.t.db.kysely.selectFrom('device_leases').select('lease_id').where('device_id', '=', deviceId).execute()).toEqual([]);
  // The tools the model saw are exactly those of §13, each with JSON Schema parameters.
  const tools = w.model.requests.at(-1)!.body.tools;
  expect(tools.map((t) => t.function.name).sort()).toEqual(
    [
      'app_close',
      'app_list',
      'app_open',
      'ask_user',
      'device_find',
      'device_find_image',
      'device_key',
      'device_long_press',
      'device_read_text',
      'device_screenshot',
      'device_scroll_to',
      'device_swipe',
      'device_tap',
      'device_type',
      'device_ui_tree',
      'device_wait_for',
      'file_list',
      'file_read',
      'file_write',
      'finish',
      'map_get',
      'run_files',
    ].sort(),
  );
  expect(tools.every((t) => t.type === 'function' && t.function.parameters.type === 'object')).toBe(true);
});

test('a question: the session waits with its question, 409 nothing more; the answer comes back as the call\'s result and the session goes on', async () => {
  const session = await startSession(w, { goal: 'Sign in to the shop' }, [{ text: 'I need the account.', calls: [{ name: 'ask_user', args: { question: 'Which email should the macro sign in with?' } }] }]);
  const waiting = await sessionInState(w, session.id, ['waiting_for_answer', 'failed']);
  expect(waiting).toMatchObject({ state: 'waiting_for_answer', question: 'Which email should the macro sign in with?' });
  const follow = await allMessages(w, session.id);
  expect(follow.state).toBe('waiting_for_answer');
  expect(follow.messages.at(-1)).toMatchObject({ role: 'agent', text: 'Which email should the macro sign in with?' });
  w.model.push(
    expecting((r) => expect(r).toBe('The person answered: ada@example.com'), { calls: [{ name: 'file_write', args: { path: 'main.py', content: 'print("ada@example.com")\n' } }] }),
    { calls: [{ name: 'finish', args: { summary: 'Done without a device.' } }] },
  );
  const answered = await w.t.app.inject({ method: 'POST', url: `/api/authoring/sessions/${session.id}/answer`, headers: w.user.auth, payload: { answer: 'ada@example.com' } });
  expect(answered.statusCode, answered.body).toBe(200);
  expect(answered.json()).toMatchObject({ question: null });
  const done = await sessionInState(w, session.id, ['done', 'failed']);
  expect(done.state, JSON.stringify(done)).toBe('done');
  const { messages } = await allMessages(w, follow.messages.length ? session.id : session.id);
  expect(messages.map((m) => m.role)).toContain('user');
  expect(messages.find((m) => m.role === 'user')?.text).toBe('ada@example.com');
});

test('no device: the device tools and run_files answer the model an error saying so', async () => {
  const session = await startSession(w, { goal: 'Anything' }, [
    { calls: [{ name: 'device_ui_tree' }] },
    expecting((r) => expect(r).toMatch(/^Error: this session has no device/), { calls: [{ name: 'run_files' }] }),
    expecting((r) => expect(r).toMatch(/^Error: this session has no device/), { calls: [{ name: 'finish', args: { summary: 'ok' } }] }),
  ]);
  expect((await sessionInState(w, session.id, ['done', 'failed'])).state).toBe('done');
});

test('stop mid-session: stopped at once, the model call in flight is abandoned, nothing is written after, the device lease ends', async () => {
  const deviceId = await cloudDevice(w);
  const session = await startSession(w, { goal: 'Slow thinker', device_id: deviceId }, [{ calls: [{ name: 'device_ui_tree' }] }, { delayMs: 1500, calls: [{ name: 'finish', args: { summary: 'too late' } }] }]);
  await expect.poll(async () => (await allMessages(w, session.id)).messages.length, { timeout: 20_000 }).toBeGreaterThan(0);
  // The session holds its device: a run by the user is refused.
  const key = (await createKey(w.t.app, w.user, { scopes: ['macros:run'] })).key;
  const busy = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers: withKey(key), payload: { macro_id: session.macro_id } });
  expect([409]).toContain(busy.statusCode);
  const stop = await w.t.app.inject({ method: 'POST', url: `/api/authoring/sessions/${session.id}/stop`, headers: w.user.auth });
  expect(stop.json()).toMatchObject({ state: 'stopped', state_message: 'Stopped at your request.' });
  const seen = (await allMessages(w, session.id)).messages.length;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  expect(await getSession(w, session.id)).toMatchObject({ state: 'stopped', files: null });
  expect((await allMessages(w, session.id)).messages.length).toBe(seen);
  expect(await w.t.db.kysely.selectFrom('device_leases').select('lease_id').where('device_id', '=', deviceId).execute()).toEqual([]);
});
