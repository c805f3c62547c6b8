// The SDK's own rules, against small servers on 127.0.0.1 that answer what the service answers
// in states a test cannot easily put it in (a 503 with Retry-After while runs are unavailable or
// the server stops): Retry-After honoured on 503, a wait longer than allowed answered at once,
// retries counted, a request body sent whole on every attempt, an unreachable server, and the
// paging helper's rules.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSvcClient, paginate, parseRetryAfter, SvcApiError, SvcConnectionError } from '#svc-client';
import { afterEach, describe, expect, test } from 'vitest';

const KEY = `svc_${'a'.repeat(48)}`;
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: string;
}

/** A server answering each request with the next of `answers` (the last one repeats). */
async function serve(answers: { status: number; headers?: Record<string, string>; body: unknown }[]): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', key: req.headers['x-api-key'] as string | undefined, body });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const unavailable = { status: 503, headers: { 'retry-after': '1' }, body: { message: 'No device host can take this run now.', details: { code: 'runs_unavailable' } } };
const started = { status: 201, body: { id: 7, execution_id: `cr_${'0'.repeat(24)}`, device_id: 3, macro_id: 4, state: 'launching', bundle_sha: 'x' } };

describe('Retry-After', () => {
  test('a 503 is waited out and the request sent again, body and key included', async () => {
    const { baseUrl, seen } = await serve([unavailable, started]);
    const svc = createSvcClient({ apiKey: KEY, baseUrl });
    const before = performance.now();
    const run = await svc.runs.start(3, { macro_id: 4, args: { speed: 2 } });
    expect(run.id).toBe(7);
    expect(performance.now() - before).toBeGreaterThanOrEqual(950);
    expect(seen).toHaveLength(2);
    for (const request of seen) expect(request).toEqual({ method: 'POST', url: '/api/hosted/devices/3/run', key: KEY, body: JSON.stringify({ macro_id: 4, args: { speed: 2 } }) });
  });

  test('after maxRetries the 503 is the error, with its code and Retry-After', async () => {
    const { baseUrl, seen } = await serve([unavailable]);
    const svc = createSvcClient({ apiKey: KEY, baseUrl, retry: { maxRetries: 1 } });
    const error = await svc.runs.start(3, { macro_id: 4 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({ status: 503, code: 'runs_unavailable', retryAfter: 1, request: 'POST /api/hosted/devices/3/run' });
    expect(seen).toHaveLength(2);
  });

  test('a wait longer than maxDelaySeconds is not waited: the error comes at once', async () => {
    const { baseUrl, seen } = await serve([{ ...unavailable, headers: { 'retry-after': '60' } }, started]);
    const svc = createSvcClient({ apiKey: KEY, baseUrl, retry: { maxDelaySeconds: 5 } });
    const before = performance.now();
    await expect(svc.runs.start(3, { macro_id: 4 })).rejects.toMatchObject({ status: 503, retryAfter: 60 });
    expect(performance.now() - before).toBeLessThan(900);
    expect(seen).toHaveLength(1);
  });

  test('other errors are never retried; a body that is not the envelope still gives a code', async () => {
    const { baseUrl, seen } = await serve([{ status: 500, body: 'oops' }]);
    const svc = createSvcClient({ apiKey: KEY, baseUrl });
    await expect(svc.whoami()).rejects.toMatchObject({ status: 500, code: 'http_500' });
    expect(seen).toHaveLength(1);
  });

  test('both forms of the header: seconds and an HTTP date', () => {
    const now = Date.parse('2026-03-02T10:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Mon, 02 Mar 2026 10:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('Mon, 02 Mar 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('failures before an answer', () => {
  test('an unreachable server is a SvcConnectionError naming the request', async () => {
    const { baseUrl } = await serve([started]);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const error = await createSvcClient({ apiKey: KEY, baseUrl }).whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcConnectionError);
    expect((error as Error).message).toMatch(/^GET \/api\/whoami could not reach the service: .*ECONNREFUSED/);
  });

  test('a missing key or a base URL without a scheme is refused when the client is made', () => {
    expect(() => createSvcClient({ apiKey: '', baseUrl: 'http://x' })).toThrow('apiKey is required');
    expect(() => createSvcClient({ apiKey: KEY, baseUrl: 'localhost:8080' })).toThrow('baseUrl must start with http');
  });
});

describe('paginate', () => {
  test('reads page after page until the last, and yields a row pushed onto the next page only once', async () => {
    // Page 1 is read, then a new row arrives at the front: row 2 moves to page 2.
    const pages = [
      { page: 1, page_size: 2, total_rows: 3, total_pages: 2, rows: [{ id: 3 }, { id: 2 }] },
      { page: 2, page_size: 2, total_rows: 4, total_pages: 2, rows: [{ id: 2 }, { id: 1 }] },
    ];
    const asked: number[] = [];
    const rows = [];
    for await (const row of paginate((page) => (asked.push(page), Promise.resolve(pages[page - 1])))) rows.push(row.id);
    expect(rows).toEqual([3, 2, 1]);
    expect(asked).toEqual([1, 2]);
  });

  test('an empty list is one request', async () => {
    const asked: number[] = [];
    const rows = [];
    for await (const row of paginate((page) => (asked.push(page), Promise.resolve({ page, page_size: 50, total_rows: 0, total_pages: 0, rows: [] as { id: number }[] })))) rows.push(row);
    expect(rows).toEqual([]);
    expect(asked).toEqual([1]);
  });
});
