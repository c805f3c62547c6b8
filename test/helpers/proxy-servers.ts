// Real servers on 127.0.0.1 for proxy checks: an IP-echo endpoint, an HTTP proxy with
// authentication (proxy-chain), a SOCKS5 proxy with authentication, and a server that
// accepts connections and never answers (for time-outs); and a client's side: a request sent
// through a proxy, and whether a port is listening.
import { createServer as createHttpServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import { connect as netConnect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createSocksServer } from '@pondwader/socks5-server';
import { Server as ProxyChainServer } from 'proxy-chain';

export interface Running {
  port: number;
  close(): Promise<void>;
}

function closeServer(server: HttpServer | NetServer, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

function listen(server: HttpServer | NetServer): Promise<{ port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as { port: number }).port, sockets })));
}

/** Answers {"ip": <the caller's address>}, as api.ipify.org does. */
export async function startEchoServer(): Promise<Running> {
  const server = createHttpServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ip: req.socket.remoteAddress }));
  });
  const { port, sockets } = await listen(server);
  return { port, close: () => closeServer(server, sockets) };
}

function testNameLookup(_host: string, options: unknown, callback?: (error: null, address: unknown, family?: number) => void): void {
  const done = (typeof options === 'function' ? options : callback) as (error: null, address: unknown, family?: number) => void;
  if (typeof options === 'object' && (options as { all?: boolean } | null)?.all) done(null, [{ address: '127.0.0.1', family: 4 }]);
  else done(null, '127.0.0.1', 4);
}

/** An HTTP proxy that answers 407 unless the credentials match; records the usernames it saw. */
export async function startHttpProxy(accept: (username: string, password: string) => boolean): Promise<Running & { usernames: string[] }> {
  const usernames: string[] = [];
  const server = new ProxyChainServer({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ username, password, hostname }) => {
      usernames.push(username);
      // A name under `.test` (RFC 2606) is this machine, so a run's traffic can name a target that only the proxy resolves.
      return { requestAuthentication: !accept(username, password), ...(hostname.endsWith('.test') ? { dnsLookup: testNameLookup as never } : {}) };
    },
  });
  await server.listen();
  return { port: server.port, usernames, close: () => server.close(true) };
}

/** The same, speaking TLS to its clients (an `https` proxy), with the given certificate. */
export async function startHttpsProxy(tls: { key: string; cert: string }, accept: (username: string, password: string) => boolean): Promise<Running> {
  const server = new ProxyChainServer({
    port: 0,
    host: '127.0.0.1',
    serverType: 'https',
    httpsOptions: { key: tls.key, cert: tls.cert },
    prepareRequestFunction: ({ username, password }) => ({ requestAuthentication: !accept(username, password) }),
  });
  await server.listen();
  return { port: server.port, close: () => server.close(true) };
}

export async function startSocksProxy(username: string, password: string): Promise<Running> {
  const socks = createSocksServer({ auth: { username, password } });
  // Our own listener hands each socket to the SOCKS server (the package's documented way to
  // process streams), so the test knows the port and can close every connection.
  const server = createNetServer((socket) => socks._handleConnection(socket));
  const { port, sockets } = await listen(server);
  return { port, close: () => closeServer(server, sockets) };
}

/** Accepts TCP connections and never says a word. */
export async function startSilentServer(): Promise<Running> {
  const server = createNetServer(() => undefined);
  const { port, sockets } = await listen(server);
  return { port, close: () => closeServer(server, sockets) };
}

/** A port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  const { port, sockets } = await listen(server);
  await closeServer(server, sockets);
  return port;
}

/** A plain HTTP request sent to a proxy at 127.0.0.1:`port` (absolute-form target), as a phone's app would. */
export function viaProxy(port: number, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: url, headers: { host: new URL(url).host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
