// One catalogue, every surface (decisions.md §16, STYLE.md "One action, two homes"): the same
// sequence of device actions, from the same screen, through a Python macro in a real cloud
// run (the device RPC), the official MCP SDK client (the tool server) and the authoring
// agent's tool runner, answers the same data and the same errors on each.
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { DEMO_APP_PACKAGE, DEVICE_CATALOGUE } from '../../../src/modules/devices/index.js';
import { checkedArguments, runTool, type ToolScene } from '../../../src/modules/authoring/agent/tool-runner.js';
import { canonicalJson } from '../../../src/modules/runs/blocks/canonical-json.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { createKey, withKey } from '../../helpers/users.js';
import { snapshotBody } from '../../helpers/zip.js';
import { call, data } from '../mcp/helpers/client.js';
import { useMcpWorld } from '../mcp/helpers/world.js';

const w = useMcpWorld();

type Step = [name: string, args: Record<string, unknown>];

const steps = (imageId: string): Step[] => [
  ['app_close', { package: DEMO_APP_PACKAGE }],
  ['app_open', { package: DEMO_APP_PACKAGE }],
  ['device_ui_tree', {}],
  ['device_read_text', {}],
  ['device_read_text', { region: { left: 0, top: 0, right: 1080, bottom: 900 } }],
  ['device_find', { selector: { clickable: true } }],
  ['device_find', { selector: { text_matches: '^Espresso', index: 0 } }],
  ['device_find_image', { image_id: imageId }],
  ['device_wait_for', { selector: { text: 'Espresso beans' }, timeout_ms: 2000 }],
  ['device_tap', { selector: { resource_id: 'row_beans' } }],
  ['device_find', { selector: { text_contains: '€' } }],
  ['device_tap', { text: 'Add to cart' }],
  ['device_wait_for', { selector: { text: 'Added to cart' } }],
  ['device_key', { key: 'BACK' }],
  ['device_wait_for', { selector: { text: 'Espresso Beans' }, timeout_ms: 300 }],
  ['device_tap', { selector: { text_contains: 'e' } }],
  ['device_scroll_to', { selector: { text: 'Nowhere' }, max_swipes: 1 }],
  ['device_long_press', { x: 540, y: 2300, ms: 300 }],
  ['device_swipe', { from: { x: 540, y: 1500 }, to: { x: 540, y: 1400 }, ms: 300 }],
  ['device_type', { text: 'x' }],
  ['app_list', {}],
  ['device_find', { selector: { txt: 'unknown key' } }],
];

const digest = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex');

/** What one answer is, in a form every surface can print: the data's digest, or the error's sentence. */
const outcome = (ok: boolean, payload: unknown) => (ok ? `ok ${digest(payload)}` : `error ${String(payload)}`);

const PYTHON = (list: Step[]) => `
import hashlib, json
import svc_device as d
from svc_device._locators import action

def canonical(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

for i, (name, args) in enumerate(json.loads(${JSON.stringify(JSON.stringify(list))})):
    try:
        result = action(name, args)
        print("step %d ok %s" % (i, hashlib.sha256(canonical(result).encode()).hexdigest()))
    except d.DeviceError as e:
        print("step %d error %s" % (i, e.message))
`;

async function pythonOutcomes(headers: Record<string, string>, deviceId: number, list: Step[]): Promise<string[]> {
  const made = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.owner.auth, payload: { name: 'Every action', kind: 'python' } });
  await w.t.app.inject({ method: 'POST', url: `/api/macros/${made.json().id}/code-snapshot`, headers, payload: snapshotBody([{ name: 'main.py', data: PYTHON(list) }], { entry_path: 'main.py' }) });
  const start = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers, payload: { macro_id: made.json().id } });
  expect(start.statusCode, start.body).toBe(201);
  const run = start.json() as { id: number; execution_id: string };
  const state = async () => (await w.t.app.inject({ url: `/api/hosted/runs/${run.id}`, headers })).json().state;
  await expect.poll(state, { timeout: 60_000, interval: 50 }).toMatch(/^(finished|failed|stopped)$/);
  const lines = (await w.t.app.inject({ url: `/api/executions/${run.execution_id}/logs?max_lines=1000`, headers })).json().lines as string[];
  expect(await state(), lines.join('\n')).toBe('finished');
  return lines.filter((l) => l.startsWith('step ')).map((l) => l.replace(/^step \d+ /, ''));
}

test('every catalogue entry answers the same through a Python run, the MCP SDK client and the agent', { timeout: 120_000 }, async () => {
  const device = await createCloudDevice(w.t.app, w.owner, { name: 'Three surfaces' });
  const { key } = await createKey(w.t.app, w.owner, { scopes: ['macros:run', 'runs:read'] });
  const client = await w.clientFor(w.owner, ['devices:control']);

  // A library image of the catalog's first thumbnail, for device_find_image.
  let { lease_id } = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: device.id }));
  await call(client, 'app_close', { lease_id, package: DEMO_APP_PACKAGE });
  await call(client, 'app_open', { lease_id, package: DEMO_APP_PACKAGE });
  const image = data<{ id: string }>(await call(client, 'template_crop', { lease_id, x: 48, y: 630, w: 168, h: 168, name: 'thumb' }));
  await call(client, 'device_release', { lease_id });
  const list = steps(image.id);
  // Every entry but the screenshot (the RPC keeps §10's PNG `screenshot`) is in the sequence.
  expect(new Set(list.map(([name]) => name))).toEqual(new Set(DEVICE_CATALOGUE.map((e) => e.name).filter((n) => n !== 'device_screenshot')));

  const python = await pythonOutcomes(withKey(key), device.id, list);

  ({ lease_id } = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: device.id })));
  const mcp: string[] = [];
  for (const [name, args] of list) {
    const result = await call(client, name, { lease_id, ...args });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    mcp.push(result.isError ? outcome(false, text.replace(/^The arguments are not valid: arguments\./, 'Validation failed: ')) : outcome(true, result.structuredContent ?? {}));
  }
  await call(client, 'device_release', { lease_id });

  const leases = w.t.app.modules.devices.services.leases;
  const holder = { userId: w.owner.id, keyId: null };
  const agentLease = (await leases.lease(holder, { device_id: device.id, minutes: 5 })).lease_id;
  const scene = {
    ctx: { userId: w.owner.id },
    ports: { leases, vision: w.t.app.modules.images.services.screen },
    sessionId: 0,
    deviceId: device.id,
    macroId: null,
    leaseId: agentLease,
    files: [],
    signal: new AbortController().signal,
  } as unknown as ToolScene;
  const agent: string[] = [];
  for (const [name, args] of list) {
    const checked = checkedArguments(name, JSON.stringify(args));
    const answer = 'error' in checked ? checked.error : await runTool(scene, name, checked.args);
    agent.push(answer.isError ? outcome(false, answer.content.replace(/^Error: /, '')) : outcome(true, answer.content.startsWith('{') ? JSON.parse(answer.content) : {}));
  }
  await leases.release(holder, { lease_id: agentLease });

  // The errors are the same sentences; a bad key is refused by each transport's schema check, naming it.
  const named = list.map(([name], i) => `${i} ${name}: ${python[i]}`);
  expect(named[14]).toMatch(/error No element text='Espresso Beans' after 0\.3 s on com\.example\.shop\/\.\w+\. On screen: 'Espresso beans', .*Did you mean text='Espresso beans'\?/);
  expect(named[15]).toMatch(/error The selector text_contains='e' matches \d+ elements: .*Add index/);
  expect(named[16]).toMatch(/error No element text='Nowhere' after 1 swipe down on .*The end of the content was reached\./);
  expect(python[21]).toMatch(/^error Validation failed: .*selector\.txt is not/);
  expect(mcp[21]).toMatch(/selector\.txt is not an accepted field/);
  expect(agent[21]).toMatch(/selector\/txt is not an accepted field/);
  const same = (xs: string[]) => xs.map((x, i) => (i === 21 ? 'bad key refused' : x));
  expect(same(mcp).map((x, i) => `${i} ${list[i][0]}: ${x}`)).toEqual(same(python).map((x, i) => `${i} ${list[i][0]}: ${x}`));
  expect(same(agent).map((x, i) => `${i} ${list[i][0]}: ${x}`)).toEqual(same(python).map((x, i) => `${i} ${list[i][0]}: ${x}`));
});
