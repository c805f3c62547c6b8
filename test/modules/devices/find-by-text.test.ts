// One screen, one text, one element: a block program and a Python macro started through the
// REST routes, and an AI client through the tool server (official MCP SDK), all pick the same
// element. The Corner Shop's sign-in screen shows "Sign in" twice: the toolbar title (not
// clickable, first in the tree) and the button (clickable); a finger picks the button, and so
// must every transport. Before issue 17 the tool server had its own look-up and tapped the title.
import { expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { createKey, withKey } from '../../helpers/users.js';
import { snapshotBody } from '../../helpers/zip.js';
import { call, data } from '../mcp/helpers/client.js';
import { useMcpWorld } from '../mcp/helpers/world.js';

const w = useMcpWorld();

const PYTHON = `
import svc_device as d
d.close_app("${DEMO_APP_PACKAGE}")
d.open_app("${DEMO_APP_PACKAGE}")
d.tap_text("Account")
print("picked:", d.tap_text("Sign in")["element_id"])
print("account shown:", d.find_text("Signed in as") is not None)
`;

const BLOCKS = {
  version: 1,
  steps: [
    { type: 'close_app', package: DEMO_APP_PACKAGE },
    { type: 'open_app', package: DEMO_APP_PACKAGE },
    { type: 'tap', text: 'Account' },
    { type: 'tap', text: 'Sign in' },
    { type: 'if_text', text: 'Signed in as', then: [{ type: 'log', message: 'account shown: True' }], else: [{ type: 'log', message: 'account shown: False' }] },
  ],
};

async function runThroughRest(headers: Record<string, string>, deviceId: number, macroId: number): Promise<string[]> {
  const start = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers, payload: { macro_id: macroId } });
  expect(start.statusCode, start.body).toBe(201);
  const run = start.json() as { id: number; execution_id: string };
  const state = async () => (await w.t.app.inject({ url: `/api/hosted/runs/${run.id}`, headers })).json().state;
  await expect.poll(state, { timeout: 20_000, interval: 25 }).toMatch(/^(finished|failed|stopped)$/);
  expect(await state()).toBe('finished');
  const logs = await w.t.app.inject({ url: `/api/executions/${run.execution_id}/logs?max_lines=1000`, headers });
  return logs.json().lines as string[];
}

async function pythonMacro(headers: Record<string, string>): Promise<number> {
  const made = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.owner.auth, payload: { name: 'Sign-in tapper', kind: 'python' } });
  const upload = await w.t.app.inject({
    method: 'POST',
    url: `/api/macros/${made.json().id}/code-snapshot`,
    headers,
    payload: snapshotBody([{ name: 'main.py', data: PYTHON }], { entry_path: 'main.py' }),
  });
  expect(upload.statusCode, upload.body).toBe(201);
  return made.json().id;
}

test('the same screen and text pick the same element through REST runs, the Python SDK and the tool server', async () => {
  const device = await createCloudDevice(w.t.app, w.owner, { name: 'One finger' });
  const { key } = await createKey(w.t.app, w.owner, { scopes: ['macros:run', 'runs:read'] });
  const headers = withKey(key);

  const python = await runThroughRest(headers, device.id, await pythonMacro(headers));
  expect(python).toEqual(expect.arrayContaining([expect.stringContaining('picked: sign_in'), expect.stringContaining('account shown: True')]));

  const blocks = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.owner.auth, payload: { name: 'Sign-in blocks', kind: 'block', blocks: BLOCKS } });
  expect(blocks.statusCode, blocks.body).toBe(201);
  expect(await runThroughRest(headers, device.id, blocks.json().id)).toEqual(expect.arrayContaining([expect.stringContaining('account shown: True')]));

  const client = await w.clientFor(w.owner, ['devices:control']);
  const { lease_id } = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: device.id }));
  // Spaces around the text are ignored, as the SDK ignores them.
  for (const text of ['Sign in', '  Sign in ']) {
    await call(client, 'app_close', { lease_id, package: DEMO_APP_PACKAGE });
    await call(client, 'app_open', { lease_id, package: DEMO_APP_PACKAGE });
    expect((await call(client, 'device_tap', { lease_id, text: 'Account' })).isError).toBeFalsy();
    const tapped = data<{ hit: { element_id: string } | null }>(await call(client, 'device_tap', { lease_id, text }));
    expect(tapped.hit?.element_id, JSON.stringify(text)).toBe('sign_in');
    const { elements } = data<{ elements: { element_id: string }[] }>(await call(client, 'device_ui_tree', { lease_id }));
    expect(elements.map((e) => e.element_id)).toContain('signed_in_as');
  }
});
