// Saving a recording (decisions.md §18): as a block macro whose program passes the block
// validator and runs, and as a code macro whose src/app.py reads as a person would write it
// with svc_device.locate and runs too; a dialog's button becomes an interrupt. Replay ends the
// recording and starts a cloud run of the macro on the same device. Deleting the device deletes
// its recordings.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { validateBlockProgram } from '../../../src/modules/runs/index.js';
import { AT, routes, useRecorderWorld } from './world.js';

const w = useRecorderWorld();
const r = routes(w);

/** Records: Continue, a check on the next screen, BACK, the name field and its text, BACK, the dialog (opened and dismissed), Hello. */
async function record(deviceId: number): Promise<string> {
  const rid = (await r.start(deviceId)).body.id as string;
  const steps: [string, unknown][] = [
    ['inputs', { type: 'tap', ...AT.ok }],
    ['checks', { x: 540, y: 400 }],
    ['inputs', { type: 'key', key: 'BACK' }],
    ['inputs', { type: 'tap', ...AT.name }],
    ['inputs', { type: 'text', text: 'Ada "the first" \\ Lovelace' }],
    ['inputs', { type: 'key', key: 'BACK' }],
    ['inputs', { type: 'tap', ...AT.menu }],
    ['inputs', { type: 'tap', ...AT.later }],
    ['inputs', { type: 'tap', ...AT.hello }],
  ];
  for (const [kind, body] of steps) {
    const res = await r.call('POST', `/api/hosted/recordings/${rid}/${kind}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  return rid;
}

async function runToEnd(runId: number) {
  let run: { state: string; execution_id: string; state_message?: string } = { state: '', execution_id: '' };
  await expect
    .poll(
      async () => {
        run = (await r.call('GET', `/api/hosted/runs/${runId}`)).body;
        return run.state;
      },
      { timeout: 60_000, interval: 100 },
    )
    .toMatch(/^(finished|failed|stopped)$/);
  const logs = (await r.call('GET', `/api/executions/${run.execution_id}/logs?max_lines=1000`)).body.lines as string[];
  return { ...run, logs };
}

const EXPECTED_PROGRAM = {
  version: 1,
  interrupts: [{ when: { text: 'Later' }, do: { type: 'tap' } }],
  steps: [
    { type: 'tap', selector: { resource_id: 'ok' } },
    { type: 'wait_for', selector: { resource_id: 'second_title' }, timeout_ms: 10_000 },
    { type: 'key', key: 'BACK' },
    { type: 'tap', selector: { resource_id: 'name' } },
    { type: 'type', text: 'Ada "the first" \\ Lovelace', selector: { resource_id: 'name' }, clear: true },
    { type: 'key', key: 'BACK' },
    { type: 'tap', selector: { desc: 'Menu' } },
    { type: 'tap', selector: { text: 'Hello' } },
  ],
};

test('saved as a block macro: §16 steps, the dialog as an interrupt, valid, and it replays to the end; replay ends the recording', async () => {
  const deviceId = await w.readyDevice();
  const rid = await record(deviceId);
  const saved = await r.save(rid, { name: 'Recorded blocks', kind: 'block' });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  expect(saved.body).toMatchObject({ name: 'Recorded blocks', kind: 'block' });
  expect(saved.body.blocks).toEqual(EXPECTED_PROGRAM);
  expect(validateBlockProgram(saved.body.blocks)).toEqual([]);
  // Saving does not end the recording.
  expect((await r.get(rid)).body.state).toBe('recording');

  const replay = await r.replay(rid, { macro_id: saved.body.id });
  expect(replay.status, JSON.stringify(replay.body)).toBe(201);
  expect(replay.body).toMatchObject({ device_id: deviceId, macro_id: saved.body.id });
  expect(replay.body.execution_id).toMatch(/^cr_[0-9a-f]{24}$/);
  expect((await r.get(rid)).body.state).toBe('stopped');
  const run = await runToEnd(replay.body.id);
  expect(run.state, run.logs.join('\n')).toBe('finished');
  expect(run.logs.join('\n')).toContain("handled interrupt: tap text='Later'");
  const driver = await w.t.app.modules.devices.services.host.driver(deviceId);
  expect((await driver.uiTree()).find((e) => e.element_id === 'name')?.text).toBe('Ada "the first" \\ Lovelace');
  // The replay's trace opens on the run's page.
  expect((await r.call('GET', `/api/executions/${replay.body.execution_id}/trace`)).status).toBe(200);
});

test('saved as a code macro: src/app.py with svc_device.locate, readable, valid Python, and it replays to the end', async () => {
  const deviceId = await w.readyDevice();
  const rid = await record(deviceId);
  const saved = await r.save(rid, { name: 'Recorded "code"', kind: 'python' });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  expect(saved.body).toMatchObject({ kind: 'python', name: 'Recorded "code"' });
  // Saved twice more (the same name again, then as blocks): the recording lists each macro saved from it, for Replay after a reload.
  const again = await r.save(rid, { name: 'Recorded blocks too', kind: 'block' });
  const listed = await r.call('GET', `/api/hosted/recordings/${rid}`);
  expect(listed.body.saved).toEqual([
    { id: saved.body.id, name: 'Recorded "code"', kind: 'python' },
    { id: again.body.id, name: 'Recorded blocks too', kind: 'block' },
  ]);
  expect((await r.call('GET', `/api/hosted/devices/${deviceId}/recording`)).body.recording.saved).toHaveLength(2);
  const files = await w.t.app.modules.codeSync.services.codeSync.currentFiles({ userId: w.owner.id }, { macro_id: saved.body.id });
  expect(files.map((f) => f.path)).toEqual(['src/app.py']);
  const source = files[0].content;
  expect(source).toContain('import svc_device as device\n');
  const body = source.slice(source.indexOf('import svc_device'));
  expect(body).toBe(
    [
      'import svc_device as device',
      '',
      '# Dialogs that may come at any time: dismissed whenever they show during a wait.',
      'device.when(text="Later").tap()',
      '',
      'device.locate(resource_id="ok").tap()',
      'device.locate(resource_id="second_title").wait(timeout_ms=10000)',
      'device.key("BACK")',
      'device.locate(resource_id="name").tap()',
      'device.locate(resource_id="name").type("Ada \\"the first\\" \\\\ Lovelace")',
      'device.key("BACK")',
      'device.locate(desc="Menu").tap()',
      'device.locate(text="Hello").tap()',
      '',
    ].join('\n'),
  );
  const dir = mkdtempSync(join(tmpdir(), 'recorded-py-'));
  writeFileSync(join(dir, 'app.py'), source);
  execFileSync('python3', ['-m', 'py_compile', join(dir, 'app.py')]);

  // The state code sync keeps: the entry is src/app.py.
  const state = await r.call('GET', `/api/macros/${saved.body.id}/code-state`);
  expect(state.body).toMatchObject({ entry_path: 'src/app.py' });

  const replay = await r.replay(rid, { macro_id: saved.body.id });
  expect(replay.status, JSON.stringify(replay.body)).toBe(201);
  const run = await runToEnd(replay.body.id);
  expect(run.state, run.logs.join('\n')).toBe('finished');
  expect(run.logs.join('\n')).toContain("handled interrupt: tap text='Later'");
});

test('a hostile macro name still makes valid Python', async () => {
  const deviceId = await w.readyDevice();
  const rid = (await r.start(deviceId)).body.id as string;
  await r.input(rid, { type: 'tap', ...AT.nothing });
  const saved = await r.save(rid, { name: 'end """ \\ \u0007 here"', kind: 'python' });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  const [file] = await w.t.app.modules.codeSync.services.codeSync.currentFiles({ userId: w.owner.id }, { macro_id: saved.body.id });
  expect(file.content).toContain(`device.tap(${AT.nothing.x}, ${AT.nothing.y})  # fragile`);
  const dir = mkdtempSync(join(tmpdir(), 'recorded-py-'));
  writeFileSync(join(dir, 'app.py'), file.content);
  execFileSync('python3', ['-m', 'py_compile', join(dir, 'app.py')]);
  await r.stop(rid);
});

test('a refused replay (a macro that is not yours, one that cannot run) leaves the recording going; a replay after stop still starts', async () => {
  const deviceId = await w.readyDevice();
  const rid = await record(deviceId);
  const theirs = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.stranger.auth, payload: { name: 'Theirs', kind: 'block', blocks: { version: 1, steps: [{ type: 'log', message: 'x' }] } } });
  const refused = await r.replay(rid, { macro_id: theirs.json().id });
  expect(refused.status).toBe(404);
  const empty = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.owner.auth, payload: { name: 'Empty', kind: 'block' } });
  const notRunnable = await r.replay(rid, { macro_id: empty.json().id });
  expect([notRunnable.status, notRunnable.body.details.code]).toEqual([409, 'macro_not_runnable']);
  expect((await r.get(rid)).body.state).toBe('recording');

  const saved = await r.save(rid, { name: 'Again', kind: 'block' });
  await r.stop(rid);
  const replay = await r.replay(rid, { macro_id: saved.body.id });
  expect(replay.status, JSON.stringify(replay.body)).toBe(201);
  expect((await runToEnd(replay.body.id)).state).toBe('finished');
});

test("deleting the device deletes its recordings, their steps and frames", async () => {
  const deviceId = await w.readyDevice();
  const rid = await record(deviceId);
  const count = async () => Number((await w.t.db.kysely.selectFrom('recording_steps').select((eb) => eb.fn.countAll().as('n')).where('recording_id', '=', rid).executeTakeFirstOrThrow()).n);
  expect(await count()).toBeGreaterThan(0);
  const deleted = await r.call('DELETE', `/api/hosted/devices/${deviceId}`);
  expect(deleted.status).toBe(204);
  expect((await r.get(rid)).status).toBe(404);
  await expect.poll(count, { timeout: 20_000 }).toBe(0);
  await expect.poll(async () => (await w.t.db.kysely.selectFrom('recordings').select('id').where('id', '=', rid).executeTakeFirst()) ?? null, { timeout: 20_000 }).toBeNull();
});
