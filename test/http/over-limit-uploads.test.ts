// A body over a route's limit is answered 413 in the envelope, and the answer reaches the
// client whether it reads while sending (curl) or only after (Node's fetch), against a real
// listening server, many times over so the race between the early answer and the rest of the
// upload is covered. A client that never stops sending is cut off after a bounded amount.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect as connectTcp, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { DRAIN_LIMITS, installBodyDrain } from '../../src/http/drain-unread-body.js';
import { ROOMY_LIMITS, newSyncer, type Syncer } from '../helpers/code-sync.js';
import { listeningApp } from '../modules/mcp/helpers/client.js';

const run = promisify(execFile);
const MIB = 1024 * 1024;
const CLIENT = new URL('./helpers/upload-client.mjs', import.meta.url).pathname;

let t: Awaited<ReturnType<typeof listeningApp>>;
let syncer: Syncer;
let dir: string;

beforeAll(async () => {
  t = await listeningApp({ workers: false, env: ROOMY_LIMITS });
  syncer = await newSyncer(t.app);
  dir = await mkdtemp(join(tmpdir(), 'over-limit-'));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

type Attempt = { status?: number; code?: string; error?: string };

async function fetchFromChild(path: string, headers: Record<string, string>, bytes: number, chunked: boolean, times: number): Promise<Attempt[]> {
  const args = JSON.stringify({ url: `${t.baseUrl}${path}`, headers, bytes, chunked, times });
  const { stdout } = await run('node', [CLIENT, args], { maxBuffer: MIB });
  return stdout.trim().split('\n').map((line) => JSON.parse(line) as Attempt);
}

async function curl(path: string, headers: Record<string, string>, bytes: number): Promise<Attempt> {
  const file = join(dir, `${bytes}.json`);
  await writeFile(file, Buffer.alloc(bytes, 'a'));
  const headerArgs = Object.entries({ 'content-type': 'application/json', ...headers }).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const { stdout } = await run('curl', ['-s', '-w', '\n%{http_code}', '--data-binary', `@${file}`, ...headerArgs, `${t.baseUrl}${path}`], { maxBuffer: MIB });
  const [body, status] = stdout.split(/\n(?=\d+$)/);
  return { status: Number(status), code: (JSON.parse(body) as { details?: { code?: string } }).details?.code };
}

const key = () => ({ 'x-api-key': syncer.key });
const session = () => ({ authorization: syncer.user.auth.authorization });

describe.each([
  { route: 'a 17 MiB code snapshot (limit 16 MiB)', path: () => `/api/macros/${syncer.macroId}/code-snapshot`, headers: key, bytes: 17 * MIB },
  { route: 'a 12 MiB image (limit 8 MiB)', path: () => '/api/images', headers: session, bytes: 12 * MIB },
  { route: 'a 9 MiB tool-server call (limit 1 MiB)', path: () => '/mcp', headers: key, bytes: 9 * MIB },
  { route: 'a 9 MiB macro (limit 1 MiB)', path: () => '/api/macros', headers: session, bytes: 9 * MIB },
])('$route', ({ path, headers, bytes }) => {
  it("reaches Node's fetch as the 413 envelope, every time, with a declared length and chunked", async () => {
    const attempts = [...(await fetchFromChild(path(), headers(), bytes, false, 8)), ...(await fetchFromChild(path(), headers(), bytes, true, 4))];
    expect(attempts).toEqual(Array(12).fill({ status: 413, code: 'payload_too_large' }));
  }, 60_000);

  it('reaches curl as the 413 envelope', async () => {
    for (let i = 0; i < 3; i += 1) expect(await curl(path(), headers(), bytes)).toEqual({ status: 413, code: 'payload_too_large' });
  }, 60_000);
});

/** A raw HTTP/1.1 client: what it received, and once the server closed, how much it had sent. */
function rawClient(socket: Socket) {
  let received = '';
  let sent = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined); // the server's reset of an endless upload
  return {
    write: (data: Buffer | string) => {
      sent += Buffer.byteLength(data);
      return socket.write(data);
    },
    received: () => received,
    sent: () => sent,
    closed,
  };
}

const opened = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

describe('a client that does not stop sending', () => {
  it('gets the 413, then the server closes after discarding a bounded amount', async () => {
    const socket = await opened(Number(new URL(t.baseUrl).port));
    const client = rawClient(socket);
    client.write(`POST /api/macros HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(session()).map(([n, v]) => `${n}: ${v}\r\n`).join('')}content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    const chunk = Buffer.concat([Buffer.from(`${MIB.toString(16)}\r\n`), Buffer.alloc(MIB, 'a'), Buffer.from('\r\n')]);
    let open = true;
    void client.closed.then(() => (open = false));
    while (open && client.sent() < 4 * DRAIN_LIMITS.maxBytes) {
      if (!client.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
    }
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(client.received()).toContain('"code":"payload_too_large"');
    // The limit, the bound, and what the two sockets' buffers hold on the way.
    expect(client.sent()).toBeLessThan(MIB + DRAIN_LIMITS.maxBytes + 32 * MIB);
  }, 60_000);

  it('keeps the connection for the next request once an over-limit body ends in time', async () => {
    const socket = await opened(Number(new URL(t.baseUrl).port));
    const client = rawClient(socket);
    const body = Buffer.alloc(3 * MIB, 'a');
    client.write(`POST /api/macros HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: ${session().authorization}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
    client.write(body);
    client.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    await expect.poll(() => client.received(), { timeout: 10_000 }).toMatch(/^HTTP\/1\.1 413 [\s\S]*HTTP\/1\.1 200 [\s\S]*"status":"ok"/);
    socket.destroy();
  });
});

describe('a client that trickles its body', () => {
  it('gets the 413, then the server closes once the time bound passes', async () => {
    // A bare server with a short time bound (the app's is 30 s) and a byte bound never reached.
    const app = Fastify({ bodyLimit: 1024 });
    installBodyDrain(app, { maxBytes: 1024 * MIB, maxMs: 300 });
    app.post('/upload', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const socket = await opened((app.server.address() as { port: number }).port);
      const client = rawClient(socket);
      client.write('POST /upload HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n');
      const started = Date.now();
      const trickle = setInterval(() => client.write(`800\r\n${'a'.repeat(0x800)}\r\n`), 20);
      await client.closed;
      clearInterval(trickle);
      expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await app.close();
    }
  });
});
