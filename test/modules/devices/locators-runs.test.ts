// The rules of decisions.md §16 in real cloud runs on `sim`: a Python macro through
// `svc_device.locate`/`when`/`read_text` (the device RPC), and block programs with the new
// steps and program-level interrupts, started over REST like any run.
import { expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { createKey, withKey } from '../../helpers/users.js';
import { snapshotBody } from '../../helpers/zip.js';
import { useMcpWorld } from '../mcp/helpers/world.js';

const w = useMcpWorld();

async function runMacro(headers: Record<string, string>, deviceId: number, macroId: number): Promise<{ state: string; error: string | null; lines: string[] }> {
  const start = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers, payload: { macro_id: macroId } });
  expect(start.statusCode, start.body).toBe(201);
  const run = start.json() as { id: number; execution_id: string };
  const state = async () => (await w.t.app.inject({ url: `/api/hosted/runs/${run.id}`, headers })).json().state;
  await expect.poll(state, { timeout: 60_000, interval: 50 }).toMatch(/^(finished|failed|stopped)$/);
  const lines = (await w.t.app.inject({ url: `/api/executions/${run.execution_id}/logs?max_lines=1000`, headers })).json().lines as string[];
  // The run's state_message is its history's error_message (§10).
  const record = (await w.t.app.inject({ url: `/api/hosted/runs/${run.id}`, headers })).json() as { state: string; state_message?: string | null };
  return { state: record.state, error: record.state_message ?? null, lines };
}

const PYTHON = `
import svc_device as d

def code_of(fn):
    try:
        fn()
        return "ok"
    except d.DeviceError as e:
        return "%s: %s" % (e.code, e.message)

print("bad key:", code_of(lambda: d.locate(colour="red")))
print("empty:", code_of(lambda: d.locate()))
print("bad pattern:", code_of(lambda: d.locate(text_matches="(?P<n>x)")))
d.close_app("${DEMO_APP_PACKAGE}")
d.open_app("${DEMO_APP_PACKAGE}")
d.set_default_timeout(3000)
d.locate(desc="Account").tap()
print("title:", d.locate(resource_id="title").text())
print("ambiguous:", code_of(lambda: d.locate(text="Sign in").tap()))
print("count:", d.locate(text="Sign in").count(), len(d.locate(editable=True).all()))
print("exists:", d.locate(text="Welcome back").exists(), d.locate(text="Nope").exists(), d.locate(text="Nope").exists(timeout_ms=200))
print("bounds:", d.locate(resource_id="sign_in").bounds())
print("missing:", code_of(lambda: d.locate(text="Sign In").wait(timeout_ms=400)))
d.locate(resource_id="email").type("ada@example.com")
d.locate(resource_id="password").type("hunter2-secret", secret=True)
print("read:", [l["text"] for l in d.read_text(region={"left": 0, "top": 300, "right": 1080, "bottom": 800})], d.read_text()[0]["source"])
d.locate(text="Sign in", clickable=True).tap()
print("signed in:", d.locate(text="Signed in as").wait()["element_id"])
d.key("BACK")
d.key("BACK")
d.locate(resource_id="sign_in").wait_gone()
# An interrupt: the "Added to cart" dialog is handled while a wait polls.
d.when(text="Keep shopping").tap()
d.locate(text="Espresso beans").tap()
d.locate(text="Add to cart").tap()
print("back on:", d.locate(resource_id="name_mug").wait()["text"])
print("scrolled:", code_of(lambda: d.locate(text="Paper filters").scroll_to(max_swipes=3)))
`;

test('a Python macro: locate, strictness, time-outs, exists, typing, read_text, interrupts, scroll_to and bad selectors', { timeout: 120_000 }, async () => {
  const device = await createCloudDevice(w.t.app, w.owner, { name: 'Python locators' });
  const { key } = await createKey(w.t.app, w.owner, { scopes: ['macros:run', 'runs:read'] });
  const headers = withKey(key);
  const made = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.owner.auth, payload: { name: 'Locators', kind: 'python' } });
  await w.t.app.inject({ method: 'POST', url: `/api/macros/${made.json().id}/code-snapshot`, headers, payload: snapshotBody([{ name: 'main.py', data: PYTHON }], { entry_path: 'main.py' }) });
  const { state, lines } = await runMacro(headers, device.id, made.json().id);
  const text = lines.join('\n');
  expect(state, text).toBe('finished');
  expect(text).toContain('bad key: validation_failed: Validation failed: selector.colour is not a selector key');
  expect(text).toContain('empty: validation_failed: Validation failed: selector is empty');
  expect(text).toContain('bad pattern: validation_failed: Validation failed: selector.text_matches named groups');
  expect(text).toContain('title: Sign in');
  expect(text).toMatch(/ambiguous: ambiguous_selector: The selector text='Sign in' matches 2 elements: 'Sign in' title \[168,126,780,210\]; 'Sign in' sign_in \[48,1062,1032,1206\]\. Add index/);
  expect(text).toContain('count: 2 2');
  expect(text).toContain('exists: True False False');
  expect(text).toContain("bounds: {'left': 48, 'top': 1062, 'right': 1032, 'bottom': 1206}");
  expect(text).toMatch(/missing: element_not_found: No element text='Sign In' after 0\.4 s on com\.example\.shop\/\.SignInActivity\. On screen: 'Sign in', .*Did you mean text='Sign in'\?/);
  expect(text).toMatch(/read: \[.*'ada@example\.com'.*\] tree/);
  expect(text).not.toContain('hunter2-secret');
  expect(text).toContain('signed in: signed_in_as');
  expect(text).toContain("handled interrupt: tap text='Keep shopping'");
  expect(text).toContain('back on: Ceramic mug');
  expect(text).toMatch(/scrolled: element_not_found: No element text='Paper filters' after 1 swipe down on .*The end of the content was reached\./);
});

const PROGRAM = {
  version: 1,
  interrupts: [{ when: { text: 'Keep shopping' }, do: { type: 'tap' } }],
  steps: [
    { type: 'close_app', package: DEMO_APP_PACKAGE },
    { type: 'open_app', package: DEMO_APP_PACKAGE },
    { type: 'tap', selector: { text: 'Espresso beans' } },
    { type: 'tap', selector: { text: 'Add to cart' }, timeout_ms: 3000 },
    { type: 'wait_for', selector: { resource_id: 'name_mug' } },
    { type: 'long_press', selector: { desc: 'Account' }, ms: 300 },
    { type: 'wait_for_text', text: 'Welcome back', timeout_ms: 3000 },
    { type: 'type', selector: { resource_id: 'password' }, text: 'hunter2-secret', secret: true, clear: true },
    { type: 'if_exists', selector: { text: 'Welcome back' }, then: [{ type: 'log', message: 'exists: yes' }], else: [{ type: 'log', message: 'exists: no' }] },
    { type: 'key', key: 'BACK' }, // hides the keyboard (§15)
    { type: 'key', key: 'BACK' },
    { type: 'wait_gone', selector: { text: 'Welcome back' } },
    { type: 'scroll_to', selector: { text: 'Ceramic mug' } },
    { type: 'if_exists', selector: { text: 'Ceramic mug' }, then: [{ type: 'tap', selector: { text: 'Sign In' }, timeout_ms: 300 }] },
  ],
};

test('a block program: the new steps, interrupts, a secret kept out of the log, and the failing step path', { timeout: 120_000 }, async () => {
  const device = await createCloudDevice(w.t.app, w.owner, { name: 'Block locators' });
  const { key } = await createKey(w.t.app, w.owner, { scopes: ['macros:run', 'runs:read'] });
  const made = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.owner.auth, payload: { name: 'Block locators', kind: 'block', blocks: PROGRAM } });
  expect(made.statusCode, made.body).toBe(201);
  const { state, error, lines } = await runMacro(withKey(key), device.id, made.json().id);
  const text = lines.join('\n');
  expect(state, text).toBe('failed');
  expect(text).toContain("handled interrupt: tap text='Keep shopping'");
  expect(text).toContain('step 8/17: type [secret, 14 characters] into resource_id=\'password\' (cleared first)');
  expect(text).not.toContain('hunter2');
  expect(text).toContain('exists: yes');
  expect(error).toMatch(/^step 17\/17 \(steps\.13\.then\.0\) failed: tap text='Sign In': No element text='Sign In' after 0\.3 s on com\.example\.shop\/\.\w+\./);
});

test('a bad selector in a block program is refused on create, naming its path and key', async () => {
  const post = (blocks: unknown) => w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.owner.auth, payload: { name: 'Bad', kind: 'block', blocks } });
  const paths = async (blocks: unknown) => {
    const res = await post(blocks);
    expect(res.statusCode).toBe(422);
    return (res.json().details.errors as { path: string; message: string }[]).map((e) => `${e.path} ${e.message}`);
  };
  expect(await paths({ version: 1, steps: [{ type: 'wait_for', selector: { colour: 'red' } }] })).toContain('body.blocks.steps.0.selector.colour is not a field of this step (or of the program)');
  expect(await paths({ version: 1, steps: [{ type: 'if_exists', selector: {}, then: [] }] })).toEqual([expect.stringMatching(/^body\.blocks\.steps\.0\.selector /)]);
  expect(await paths({ version: 1, steps: [{ type: 'repeat', times: 1, steps: [{ type: 'tap', selector: { text_matches: '(?<n>a)' } }] }] })).toEqual([
    'body.blocks.steps.0.steps.0.selector.text_matches named groups written (?<name>…) are ECMAScript only',
  ]);
  expect(await paths({ version: 1, steps: [], interrupts: [{ when: { text_matches: '[' }, do: { type: 'tap' } }] })).toEqual([expect.stringMatching(/^body\.blocks\.interrupts\.0\.when\.text_matches is not a valid regular expression/)]);
});
