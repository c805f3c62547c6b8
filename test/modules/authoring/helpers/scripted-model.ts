// A scripted model endpoint for the authoring tests: a small real HTTP server on 127.0.0.1
// that speaks the chat-completions protocol (tool calls, usage counts, errors, slow replies)
// and replays a script, one entry per request. Every request it received is kept, so a test
// can read the prompts the agent sent (no secret may be in them).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCallStep {
  name: string;
  args?: Record<string, unknown> | string;
}

export interface ReceivedRequest {
  body: {
    model: string;
    messages: { role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown[] }[];
    tools: { type: string; function: { name: string; parameters: Record<string, unknown> } }[];
  };
  headers: IncomingMessage['headers'];
}

/** One reply: tool calls and/or text with a token count; or an HTTP error; either may come slowly. */
export type Step =
  | { calls?: ToolCallStep[]; text?: string; tokens?: number; delayMs?: number }
  | { status: number; error: string; delayMs?: number }
  | ((request: ReceivedRequest) => Step);

export interface ScriptedModel {
  url: string;
  requests: ReceivedRequest[];
  /** Steps not yet replayed. */
  remaining(): number;
  /** Appends steps (a later phase of a test). */
  push(...steps: Step[]): void;
  close(): Promise<void>;
}

let callCounter = 0;

function completion(step: { calls?: ToolCallStep[]; text?: string; tokens?: number }, model: string) {
  const tool_calls = (step.calls ?? []).map((call) => ({
    id: `call_${++callCounter}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}) },
  }));
  const total = step.tokens ?? 500;
  return {
    id: `chatcmpl-${callCounter}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, finish_reason: tool_calls.length ? 'tool_calls' : 'stop', message: { role: 'assistant', content: step.text ?? null, ...(tool_calls.length ? { tool_calls } : {}) } }],
    usage: { prompt_tokens: Math.floor(total * 0.8), completion_tokens: total - Math.floor(total * 0.8), total_tokens: total },
  };
}

export async function startScriptedModel(script: Step[] = []): Promise<ScriptedModel> {
  const steps = [...script];
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const received: ReceivedRequest = { body: JSON.parse(Buffer.concat(chunks).toString('utf8')), headers: req.headers };
      requests.push(received);
      let step = steps.shift() ?? { status: 500, error: 'the test script has no more replies' };
      while (typeof step === 'function') step = step(received);
      const send = () => {
        if (res.destroyed) return;
        if ('status' in step) {
          res.writeHead(step.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: step.error, type: 'server_error' } }));
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(step, received.body.model)));
        }
      };
      if (step.delayMs) setTimeout(send, step.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    remaining: () => steps.length,
    push: (...more) => steps.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The text of the last tool result the agent sent (what the model read last). */
export function lastToolResult(request: ReceivedRequest): string {
  const tool = [...request.body.messages].reverse().find((m) => m.role === 'tool');
  return typeof tool?.content === 'string' ? tool.content : '';
}
