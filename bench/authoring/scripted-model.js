// @ts-check
// A scripted "model" for the authoring benchmark: a small chat-completions server (tool calls,
// usage counts) that replays, per task, what a competent agent would do — open the app, read
// the UI tree, write the task's macro (for some tasks a wrong one first, run it, read the
// failure, then the right one), run it and finish. It does not read what comes back: it proves
// the harness (sessions, runs, checks, replays, metering), not any model's skill. The task is
// recognised by its goal in the prompt. Token counts are estimated as characters ÷ 4 of what
// was sent and answered, the rough rate of common tokenizers on English and code.
import { createServer } from 'node:http';

/** @typedef {import('./tasks.js').Task} Task */
/** @typedef {{ name: string, args?: Record<string, unknown> }} Call */

/**
 * The calls the scripted agent makes for a task, one per model request.
 * @param {Task} task
 * @returns {Call[]}
 */
export function scriptFor(task) {
  const tries = [...(task.firstTry ? [task.firstTry] : []), task.scriptedMacro ?? task.macro];
  return [
    { name: 'app_open', args: { package: task.app } },
    { name: 'device_ui_tree' },
    ...tries.flatMap((code) => [{ name: 'file_write', args: { path: 'main.py', content: code } }, { name: 'run_files' }]),
    { name: 'finish', args: { summary: `The macro in main.py does this: ${task.goal}` } },
  ];
}

/** @param {unknown} content */
const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => (p && typeof p === 'object' && 'text' in p ? String(p.text) : '')).join('\n') : '');

/**
 * @param {Task[]} tasks
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startScriptedModel(tasks) {
  let counter = 0;
  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      /** @param {number} status @param {unknown} body */
      const send = (status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(404, { error: { message: 'not found' } });
      const body = JSON.parse(raw);
      /** @type {{ role: string, content: unknown }[]} */
      const messages = body.messages ?? [];
      const prompt = messages.filter((m) => m.role === 'system' || m.role === 'user').map((m) => textOf(m.content)).join('\n');
      const task = tasks.find((t) => prompt.includes(t.goal));
      if (!task) return send(400, { error: { message: 'the scripted model knows no task with this goal', type: 'invalid_request_error' } });
      const step = messages.filter((m) => m.role === 'assistant').length;
      const call = scriptFor(task)[step];
      if (!call) return send(500, { error: { message: 'the script has no more steps', type: 'server_error' } });
      const message = { role: 'assistant', content: null, tool_calls: [{ id: `call_${++counter}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } }] };
      const promptTokens = Math.ceil(raw.length / 4);
      const completionTokens = Math.ceil(JSON.stringify(message).length / 4);
      send(200, {
        id: `chatcmpl-${counter}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, finish_reason: 'tool_calls', message }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve(undefined)); }),
  };
}
