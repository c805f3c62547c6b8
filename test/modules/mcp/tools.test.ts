// The tools through the SDK client: listing and calling per scope, and the macro and run
// tools on the real services; another account's ids are never found. The device tools are
// in device-tools.test.ts.
import { describe, expect, test } from 'vitest';
import { appendLogBatch } from '../../../src/modules/run-logs/index.js';
import { createCloudDevice, createDevice, createMacro } from '../../helpers/resources.js';
import { createKey, withKey } from '../../helpers/users.js';
import { snapshotBody } from '../../helpers/zip.js';
import { insertHistoryRecord, newExecutionId } from '../runs/helpers/records.js';
import { call, data, failure } from './helpers/client.js';
import { useMcpWorld } from './helpers/world.js';

const w = useMcpWorld();

const DEVICE_TOOLS = [
  'device_list',
  'device_lease',
  'device_release',
  'device_screenshot',
  'device_ui_tree',
  'device_read_text',
  'device_find',
  'device_find_image',
  'device_tap',
  'device_long_press',
  'device_swipe',
  'device_type',
  'device_key',
  'device_wait_for',
  'device_scroll_to',
  'app_list',
  'app_open',
  'app_close',
  'template_crop',
  'template_list',
];
const RUN_TOOLS = ['macro_list', 'macro_get', 'run_logs', 'run_trace', 'run_validate', 'run_start', 'run_get', 'run_stop', 'schedule_create', 'schedule_list', 'schedule_cancel'];
const MAP_TOOLS = ['map_get'];
const AUTHOR_TOOLS = ['authoring_start', 'authoring_follow', 'authoring_answer', 'authoring_stop', 'macro_scaffold', 'macro_install_code'];

describe('scopes', () => {
  test('tools/list shows exactly what each key may call, with input and output schemas', async () => {
    const names = async (scopes?: string[]) => (await (await w.clientFor(w.owner, scopes)).listTools()).tools.map((tool) => tool.name).sort();
    expect(await names(['devices:control'])).toEqual([...DEVICE_TOOLS].sort());
    expect(await names(['macros:run'])).toEqual([...RUN_TOOLS].sort());
    expect(await names(['runs:read'])).toEqual([]);
    expect(await names(['macros:author'])).toEqual([...AUTHOR_TOOLS].sort());
    expect(await names(['maps:read'])).toEqual(MAP_TOOLS);
    expect(await names()).toEqual([...DEVICE_TOOLS, ...RUN_TOOLS, ...MAP_TOOLS, ...AUTHOR_TOOLS].sort());
    const { tools } = await (await w.clientFor(w.owner)).listTools();
    const tree = tools.find((tool) => tool.name === 'device_ui_tree');
    expect(tree?.inputSchema).toMatchObject({ type: 'object', required: ['lease_id'] });
    expect(tree?.outputSchema).toMatchObject({ type: 'object', properties: { elements: { type: 'array' } } });
    expect(tree?.description).toMatch(/Scope: devices:control/);
  });

  test('a call outside the scopes is an error result naming the missing scope', async () => {
    const client = await w.clientFor(w.owner, ['macros:run']);
    expect(failure(await call(client, 'device_list'))).toEqual({ code: 'insufficient_scope', text: expect.stringContaining('devices:control') });
    const other = await w.clientFor(w.owner, ['devices:control']);
    expect(failure(await call(other, 'macro_list'))).toEqual({ code: 'insufficient_scope', text: expect.stringContaining('macros:run') });
  });

  test('an unknown tool and bad arguments are error results, not protocol errors', async () => {
    const client = await w.clientFor(w.owner);
    expect(failure(await call(client, 'no_such_tool'))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(client, 'macro_get', { macro_id: 'seven' }))).toMatchObject({ code: 'validation_failed', text: expect.stringContaining('arguments.macro_id') });
    expect(failure(await call(client, 'macro_get', {}))).toMatchObject({ code: 'validation_failed', text: expect.stringContaining('arguments.macro_id is required') });
  });
});

describe('macros and runs', () => {
  test('macro_list and macro_get with code state; another account sees none of it', async () => {
    const code = await createMacro(w.t.app, w.owner, { name: 'Code', kind: 'python' });
    const synced = await createMacro(w.t.app, w.owner, { name: 'Synced', kind: 'python' });
    const block = await createMacro(w.t.app, w.owner, { name: 'Blocks', kind: 'block' });
    const { key } = await createKey(w.t.app, w.owner, { scopes: ['macros:run'], name: 'sync' });
    const upload = await w.t.app.inject({ method: 'POST', url: `/api/macros/${synced.id}/code-snapshot`, headers: withKey(key), payload: snapshotBody([{ name: 'main.py', data: 'print(1)\n' }]) });
    expect(upload.statusCode, upload.body).toBeLessThan(300);

    const client = await w.clientFor(w.owner, ['macros:run']);
    const { items } = data<{ items: Record<string, unknown>[] }>(await call(client, 'macro_list'));
    expect(items.map((m) => m.name)).toEqual(['Blocks', 'Code', 'Synced']);
    expect(items[0]).not.toHaveProperty('code');
    expect(items[1]).toMatchObject({ id: code.id, kind: 'python', code: null });
    expect(items[2]).toMatchObject({ id: synced.id, code: { entry_path: 'main.py', file_count: 1 } });
    const one = await call(client, 'macro_get', { macro_id: block.id });
    expect(data(one)).toMatchObject({ id: block.id, kind: 'block' });
    expect(JSON.parse((one.content[0] as { text: string }).text)).toEqual(one.structuredContent);

    const theirs = await w.clientFor(w.stranger, ['macros:run']);
    expect(data(await call(theirs, 'macro_list'))).toEqual({ items: [] });
    expect(failure(await call(theirs, 'macro_get', { macro_id: block.id }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(theirs, 'run_validate', { macro_id: block.id }))).toMatchObject({ code: 'not_found' });
  });

  test('run_logs reads a run log with the cursor; someone else\'s execution is not found', async () => {
    const executionId = newExecutionId();
    const runPk = await insertHistoryRecord(w.t.db.kysely, w.owner.id, executionId);
    await appendLogBatch(w.t.db, runPk, ['one', 'two'], w.t.clock.now());
    await appendLogBatch(w.t.db, runPk, ['three'], w.t.clock.now());
    const client = await w.clientFor(w.owner, ['macros:run']);
    expect(data(await call(client, 'run_logs', { execution_id: executionId }))).toEqual({ execution_id: executionId, lines: ['one', 'two', 'three'], last_seq: 2 });
    expect(data(await call(client, 'run_logs', { execution_id: executionId, since_seq: 1 }))).toEqual({ execution_id: executionId, lines: ['three'], last_seq: 2 });
    const theirs = await w.clientFor(w.stranger, ['macros:run']);
    expect(failure(await call(theirs, 'run_logs', { execution_id: executionId }))).toMatchObject({ code: 'not_found' });
  });

  test('run_validate names what would stop a run', async () => {
    const client = await w.clientFor(w.owner, ['macros:run']);
    const unsynced = await createMacro(w.t.app, w.owner, { name: 'Never synced', kind: 'python' });
    expect(data(await call(client, 'run_validate', { macro_id: unsynced.id }))).toMatchObject({ ok: false, problems: [{ code: 'code_not_synced' }] });

    const empty = await createMacro(w.t.app, w.owner, { name: 'Empty', kind: 'block' });
    expect(data(await call(client, 'run_validate', { macro_id: empty.id }))).toMatchObject({ ok: false, problems: [{ code: 'macro_not_runnable' }] });

    const res = await w.t.app.inject({
      method: 'POST', url: '/api/macros', headers: w.owner.auth,
      payload: { name: 'Images', kind: 'block', blocks: { version: 1, steps: [{ type: 'repeat', times: 2, steps: [{ type: 'tap', image_id: 'img_0123456789abcdef' }] }] } },
    });
    const images = res.json();
    const local = await createDevice(w.t.app, w.owner, { name: 'Desk phone', port: 5555 });
    const checked = data<{ ok: boolean; problems: { code: string; path?: string }[] }>(await call(client, 'run_validate', { macro_id: images.id, device_id: local.id, args: { speed: 2 } }));
    expect(checked.ok).toBe(false);
    expect(checked.problems.map((p) => p.code).sort()).toEqual(['not_a_cloud_device', 'unknown_argument', 'unknown_image']);
    expect(checked.problems.find((p) => p.code === 'unknown_image')?.path).toBe('blocks.steps.0.steps.0.image_id');

    const theirDevice = await createCloudDevice(w.t.app, w.stranger, { name: 'Theirs' });
    expect(failure(await call(client, 'run_validate', { macro_id: images.id, device_id: theirDevice.id }))).toMatchObject({ code: 'not_found' });
  });
});
