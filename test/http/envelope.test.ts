// Errors raised before a route runs still use the envelope {message, details: {code}}:
// a bad URL encoding, an over-long path parameter, and requests Node's HTTP parser refuses
// (huge headers, malformed request lines). The last kind never reaches Fastify, so those
// are sent over a real socket; app.inject bypasses Node's parser.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signUp, type SignedUpUser } from '../helpers/users.js';

let t: TestApp;
let user: SignedUpUser;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  user = await signUp(t.app);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const envelope = (code: string) => ({ message: expect.stringMatching(/\S/), details: { code } });

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as raw bytes and reads the answer until the server closes the socket. */
function raw(request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy(new Error('the server did not close the connection')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}

describe('errors the router raises', () => {
  test('a bad URL encoding answers 400 bad_request', async () => {
    for (const url of ['/api/macros/%FF', '/api/macros/%E0%A4%A']) {
      const res = await t.app.inject({ url, headers: user.auth });
      expect([url, res.statusCode]).toEqual([url, 400]);
      expect(res.json()).toEqual(envelope('bad_request'));
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  test('a path parameter over 100 characters answers 414 uri_too_long', async () => {
    const res = await t.app.inject({ url: `/api/macros/${'1'.repeat(101)}`, headers: user.auth });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual(envelope('uri_too_long'));
  });
});

describe('requests Node refuses', () => {
  test('headers over the size limit answer 431 headers_too_large and close the connection', async () => {
    const res = await raw(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.connection).toBe('close');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expect(JSON.parse(res.body)).toEqual(envelope('headers_too_large'));
  });

  test.each([
    ['an invalid Content-Length', 'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n'],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['a header without a colon', 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n'],
    ['both Content-Length and chunked', 'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}'],
  ])('%s answers 400 bad_request in the envelope', async (_name, request) => {
    const res = await raw(request);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toEqual(envelope('bad_request'));
  });

  test('a bad URL encoding over a real socket answers in the envelope too', async () => {
    const res = await raw('GET /api/macros/%FF HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual(envelope('bad_request'));
  });

  test('the server keeps serving after refusing a malformed request', async () => {
    await raw('HELLO\r\n\r\n');
    const res = await raw('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
  });
});
