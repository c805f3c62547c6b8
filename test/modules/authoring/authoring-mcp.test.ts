// The authoring tools through the official MCP SDK client (decisions.md §12): listed only for
// macros:author, a session started, followed, answered and stopped; every macro_scaffold
// template installed with macro_install_code and run as a real cloud run on the demo app;
// without a model endpoint the session tools answer an error saying how to configure one.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createKey, withKey } from '../../helpers/users.js';
import { call, connect, failure, listeningApp } from '../mcp/helpers/client.js';
import { removeTempDirs, tempDir } from '../runs/helpers/runner.js';
import { signUp } from '../../helpers/users.js';
import { type AuthoringWorld, authoringWorld, closeAuthoringWorld, cloudDevice, sessionInState } from './helpers/authoring-world.js';

const AUTHOR_TOOLS = ['authoring_answer', 'authoring_follow', 'authoring_start', 'authoring_stop', 'macro_install_code', 'macro_scaffold'];

let w: AuthoringWorld;
let author: Client;
let key: string;
beforeAll(async () => {
  w = await authoringWorld();
  key = (await createKey(w.t.app, w.user, { scopes: ['macros:author', 'macros:run'] })).key;
  author = await connect(w.t.config.baseUrl, { headers: { authorization: `Bearer ${key}` } });
});
afterAll(async () => {
  await author?.close();
  await closeAuthoringWorld(w);
  removeTempDirs();
});

test('tools/list shows the six authoring tools to a macros:author key only; another key gets insufficient_scope', async () => {
  const names = (await author.listTools()).tools.map((t) => t.name);
  expect(AUTHOR_TOOLS.every((n) => names.includes(n))).toBe(true);
  const runner = await connect(w.t.config.baseUrl, { headers: { authorization: `Bearer ${(await createKey(w.t.app, w.user, { scopes: ['macros:run'] })).key}` } });
  try {
    const theirs = (await runner.listTools()).tools.map((t) => t.name);
    expect(theirs.filter((n) => AUTHOR_TOOLS.includes(n))).toEqual([]);
    expect(failure(await call(runner, 'macro_scaffold', { name: 'x' })).code).toBe('insufficient_scope');
  } finally {
    await runner.close();
  }
});

test('a session through the tools: start, follow with the cursor, answer the question, stop; someone else\'s session is not_found', async () => {
  w.model.push({ text: 'One question first.', calls: [{ name: 'ask_user', args: { question: 'Which colour?' } }] });
  const started = await call(author, 'authoring_start', { goal: 'Pick a colour' });
  expect(started.isError, JSON.stringify(started)).toBeFalsy();
  const session = started.structuredContent as { id: number; state: string };
  expect(session.state).toBe('working');
  await sessionInState(w, session.id, ['waiting_for_answer']);
  const follow = (await call(author, 'authoring_follow', { session_id: session.id })).structuredContent as { messages: { text: string }[]; cursor: string; state: string; question?: string };
  expect(follow).toMatchObject({ state: 'waiting_for_answer', question: 'Which colour?' });
  expect(follow.messages.map((m) => m.text)).toEqual(['One question first.', 'ask_user: asked: Which colour?', 'Which colour?']);
  const none = (await call(author, 'authoring_follow', { session_id: session.id, cursor: follow.cursor })).structuredContent as { messages: unknown[] };
  expect(none.messages).toEqual([]);
  w.model.push({ delayMs: 3000, calls: [{ name: 'finish', args: { summary: 'never' } }] });
  const answered = await call(author, 'authoring_answer', { session_id: session.id, answer: 'Blue' });
  expect(answered.structuredContent).toMatchObject({ state: 'working' });
  expect(failure(await call(author, 'authoring_answer', { session_id: session.id, answer: 'Again' })).code).toBe('not_waiting');
  const stopped = await call(author, 'authoring_stop', { session_id: session.id });
  expect(stopped.structuredContent).toMatchObject({ state: 'stopped' });
  const stranger = await signUp(w.t.app);
  const theirs = await connect(w.t.config.baseUrl, { headers: { authorization: `Bearer ${(await createKey(w.t.app, stranger, { scopes: ['macros:author'] })).key}` } });
  try {
    expect(failure(await call(theirs, 'authoring_follow', { session_id: session.id })).code).toBe('not_found');
    expect(failure(await call(theirs, 'authoring_stop', { session_id: session.id })).code).toBe('not_found');
  } finally {
    await theirs.close();
  }
});

describe('every macro_scaffold template runs as a cloud run on the demo app as shipped', () => {
  for (const template of ['blank', 'tap_through', 'form_fill']) {
    test(template, async () => {
      const scaffold = await call(author, 'macro_scaffold', { name: `Scaffolded ${template}`, template });
      const { files } = scaffold.structuredContent as { files: { path: string; content: string }[] };
      expect(files.map((f) => f.path)).toEqual(['README.md', 'main.py']);
      const macro = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.user.auth, payload: { name: template, kind: 'python' } });
      const installed = await call(author, 'macro_install_code', { macro_id: macro.json().id, files });
      expect(installed.isError, JSON.stringify(installed)).toBeFalsy();
      expect(installed.structuredContent).toMatchObject({ entry_path: 'main.py', file_count: 2 });
      const deviceId = await cloudDevice(w);
      const run = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers: withKey(key), payload: { macro_id: macro.json().id } });
      expect(run.statusCode, run.body).toBe(201);
      await expect.poll(async () => (await w.t.app.inject({ url: `/api/hosted/runs/${run.json().id}`, headers: withKey(key) })).json().state, { timeout: 30_000, interval: 50 }).toMatch(/^(finished|failed|stopped)$/);
      const logs = (await w.t.app.inject({ url: `/api/executions/${run.json().execution_id}/logs?max_lines=100`, headers: withKey((await createKey(w.t.app, w.user, { scopes: ['runs:read'] })).key) })).json().lines as string[];
      const ended = (await w.t.app.inject({ url: `/api/hosted/runs/${run.json().id}`, headers: withKey(key) })).json();
      expect(ended.state, logs.join('\n')).toBe('finished');
      expect(logs.join('\n')).toMatch(template === 'blank' ? /opened com\.example\.shop/ : template === 'tap_through' ? /done/ : /sent; 'Order placed' is showing/);
    });
  }
  test('macro_install_code refuses bad files and someone else\'s macro, changing nothing', async () => {
    const macro = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.user.auth, payload: { name: 'target', kind: 'python' } });
    const bad = await call(author, 'macro_install_code', { macro_id: macro.json().id, files: [{ path: '../escape.py', content: 'x' }] });
    expect(bad.isError).toBe(true);
    expect(await call(author, 'macro_install_code', { macro_id: macro.json().id, files: [] })).toMatchObject({ isError: true });
    const stranger = await signUp(w.t.app);
    const theirs = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: stranger.auth, payload: { name: 'theirs', kind: 'python' } });
    expect(failure(await call(author, 'macro_install_code', { macro_id: theirs.json().id, files: [{ path: 'main.py', content: 'print(1)' }] })).code).toBe('not_found');
    expect(await w.t.db.kysely.selectFrom('code_snapshots').select('id').where('macro_id', 'in', [macro.json().id, theirs.json().id]).execute()).toEqual([]);
  });
});

describe('without AUTHOR_LLM_URL', () => {
  test('the session tools answer authoring_unavailable with how to configure it; scaffolding still works', async () => {
    const app = await listeningApp({ env: { RUNS_DIR: tempDir() }, workers: false });
    try {
      const user = await signUp(app.app);
      const client = await connect(app.baseUrl, { headers: { authorization: `Bearer ${(await createKey(app.app, user, { scopes: ['macros:author'] })).key}` } });
      try {
        for (const [name, args] of [['authoring_start', { goal: 'x' }], ['authoring_follow', { session_id: 1 }], ['authoring_answer', { session_id: 1, answer: 'y' }], ['authoring_stop', { session_id: 1 }]] as const) {
          const refused = failure(await call(client, name, args));
          expect(refused.code, name).toBe('authoring_unavailable');
          expect(refused.text).toContain('AUTHOR_LLM_URL');
        }
        expect((await call(client, 'macro_scaffold', { name: 'ok' })).isError).toBeFalsy();
      } finally {
        await client.close();
      }
    } finally {
      await app.close();
    }
  });
});
