// run_files installs the session's files with code sync's rules and runs the entry code sync
// chose (decisions.md §5: `src/app.py`, else the `main.py` nearest the root, else the first
// `.py` file): a session on a macro laid out as `src/app.py` runs it, a model that writes only
// `src/app.py` runs it, and a project with no `.py` file is told what it lacks. Real cloud runs
// of real Python on the simulated device, against a scripted model.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMacro } from '../../helpers/resources.js';
import { createKey, withKey } from '../../helpers/users.js';
import { snapshotBody } from '../../helpers/zip.js';
import { removeTempDirs } from '../runs/helpers/runner.js';
import { allMessages, type AuthoringWorld, authoringWorld, closeAuthoringWorld, cloudDevice, sessionInState, startSession } from './helpers/authoring-world.js';
import { useExpecting } from './helpers/expecting.js';

let w: AuthoringWorld;
beforeAll(async () => {
  w = await authoringWorld();
});
afterAll(async () => {
  await closeAuthoringWorld(w);
  removeTempDirs();
});

/** Checks what the model read last, then answers with the next step. */
const expecting = useExpecting();

const APP = 'import svc_device as d\nfrom helpers import greeting\nd.log(greeting() + " from src/app.py")\n';
const HELPERS = 'def greeting():\n    return "hello"\n';
const finish = { calls: [{ name: 'finish', args: { summary: 'ran it' } }] };

test("a session on a macro laid out as src/app.py lists that entry and runs it (code sync's choice, not main.py)", async () => {
  const key = (await createKey(w.t.app, w.user)).key;
  const macro = await createMacro(w.t.app, w.user, { kind: 'python', name: 'Seeded layout' });
  // A tools/main.py as well: code sync still picks src/app.py first.
  const files = [
    { name: 'src/app.py', data: APP },
    { name: 'src/helpers.py', data: HELPERS },
    { name: 'tools/main.py', data: 'raise SystemExit("not the entry")\n' },
  ];
  const upload = await w.t.app.inject({ method: 'POST', url: `/api/macros/${macro.id}/code-snapshot`, headers: withKey(key), payload: snapshotBody(files) });
  expect(upload.statusCode, upload.body).toBe(201);
  const session = await startSession(w, { goal: 'Run what is there', macro_id: macro.id, device_id: await cloudDevice(w) }, [
    { calls: [{ name: 'file_list' }] },
    expecting((r) => expect(JSON.parse(r).entry).toBe('src/app.py'), { calls: [{ name: 'run_files' }] }),
    expecting((r) => {
      const run = JSON.parse(r);
      expect(run).toMatchObject({ state: 'finished', exit_code: 0, entry: 'src/app.py' });
      expect(run.log_tail).toContain('hello from src/app.py');
    }, finish),
  ]);
  expect((await sessionInState(w, session.id, ['done', 'failed'], 60_000)).state).toBe('done');
  const code = await w.t.app.inject({ url: `/api/macros/${macro.id}/code-state`, headers: withKey(key) });
  expect(code.json().entry_path).toBe('src/app.py');
});

test('a model that writes only src/app.py (the layout code sync documents) runs it', async () => {
  const session = await startSession(w, { goal: 'Write it the documented way', device_id: await cloudDevice(w) }, [
    { calls: [{ name: 'file_write', args: { path: 'src/app.py', content: APP } }, { name: 'file_write', args: { path: 'src/helpers.py', content: HELPERS } }] },
    { calls: [{ name: 'run_files' }] },
    expecting((r) => expect(JSON.parse(r)).toMatchObject({ state: 'finished', exit_code: 0, entry: 'src/app.py', log_tail: ['hello from src/app.py'] }), finish),
  ]);
  expect((await sessionInState(w, session.id, ['done', 'failed'], 60_000)).state).toBe('done');
  const { messages } = await allMessages(w, session.id);
  expect(messages.some((m) => m.role === 'tool' && m.text.startsWith('run_files: run cr_') && m.text.includes('finished'))).toBe(true);
});

test('a project with no .py file: run_files says a run needs one and how the entry is chosen; nothing is installed', async () => {
  const session = await startSession(w, { goal: 'Only notes', device_id: await cloudDevice(w) }, [
    { calls: [{ name: 'file_write', args: { path: 'README.md', content: '# notes\n' } }] },
    { calls: [{ name: 'run_files' }] },
    expecting((r) => expect(r).toMatch(/^Error: .*\.py.*src\/app\.py/), finish),
  ]);
  const done = await sessionInState(w, session.id, ['done', 'failed'], 60_000);
  expect(done.state).toBe('done');
  const code = await w.t.app.inject({ url: `/api/macros/${done.macro_id}/code-state`, headers: withKey((await createKey(w.t.app, w.user)).key) });
  expect(code.statusCode).toBe(404);
});
