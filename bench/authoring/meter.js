// @ts-check
// A metering proxy between the service and the model endpoint: the service's AUTHOR_LLM_URL
// names it, it forwards every request unchanged (the Authorization header too, never logged)
// to the real endpoint and reads the `usage` each answer reports. The tasks run one at a time,
// so the counts since the last reset are one task's model calls and tokens. Streaming is not
// used by the agent; an answer without `usage` is counted as a call with unknown tokens.
import { createServer } from 'node:http';

/**
 * @param {string} upstream the endpoint's base URL, e.g. http://127.0.0.1:11434/v1
 */
export async function startMeter(upstream) {
  const base = upstream.replace(/\/+$/, '');
  const counts = { calls: 0, errors: 0, promptTokens: 0, completionTokens: 0, withoutUsage: 0 };
  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      // The service calls `${AUTHOR_LLM_URL}/chat/completions`; the path after /v1 is kept.
      const path = (req.url ?? '/').replace(/^\/v1/, '');
      /** @type {Record<string, string>} */
      const headers = { 'content-type': 'application/json' };
      if (req.headers.authorization) headers.authorization = req.headers.authorization;
      counts.calls++;
      try {
        const answer = await fetch(`${base}${path}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
        const text = await answer.text();
        if (!answer.ok) counts.errors++;
        else {
          try {
            const usage = JSON.parse(text).usage;
            if (usage && typeof usage.prompt_tokens === 'number') {
              counts.promptTokens += usage.prompt_tokens;
              counts.completionTokens += usage.completion_tokens ?? 0;
            } else counts.withoutUsage++;
          } catch {
            counts.withoutUsage++;
          }
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
      } catch (error) {
        counts.errors++;
        res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `the meter could not reach the endpoint: ${error instanceof Error ? error.message : String(error)}` } }));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    /** The counts since the last reset, then zero again. */
    take() {
      const now = { ...counts };
      Object.assign(counts, { calls: 0, errors: 0, promptTokens: 0, completionTokens: 0, withoutUsage: 0 });
      return now;
    },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve(undefined)); }),
  };
}
