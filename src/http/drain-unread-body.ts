// An answer sent while the request body is still arriving (413 for a body over the route's
// limit, a 401 before an upload is read) must reach the client. Closing the socket at once,
// as Fastify asks for such errors, makes the kernel reset the connection when the rest of
// the upload lands on it, and a client that reads the answer only after sending (Node's
// fetch) sees "fetch failed" (EPIPE or ECONNRESET) instead of the 413. So the rest of the
// body is read and discarded, like nginx's lingering close, but never without end: past
// `maxBytes` more bytes or `maxMs`, whichever comes first, the socket is destroyed, so a
// client sending an endless or trickling body costs a bounded amount of reading and time.
// A body that ends in time leaves the connection open for the client's next request.
import { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface DrainLimits {
  /** The most bytes read and discarded after the answer. */
  maxBytes: number;
  /** The longest the rest of the body is waited for. */
  maxMs: number;
}

export const DRAIN_LIMITS: DrainLimits = { maxBytes: 64 * 1024 * 1024, maxMs: 30_000 };

/** The body's declared length, or undefined for a chunked one. */
function declaredLength(request: FastifyRequest): number | undefined {
  const value = Number(request.headers['content-length']);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

export function installBodyDrain(app: FastifyInstance, limits: DrainLimits = DRAIN_LIMITS): void {
  const draining = new Set<Socket>();

  function drain(request: FastifyRequest, socket: Socket): void {
    draining.add(socket);
    let discarded = 0;
    const stop = () => {
      clearTimeout(timer);
      draining.delete(socket);
      request.raw.removeListener('data', onData);
    };
    const cut = () => {
      stop();
      socket.destroy();
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limits.maxBytes) cut();
    };
    const timer = setTimeout(cut, limits.maxMs);
    timer.unref();
    // A 'data' listener also keeps the stream flowing, so Node reads the rest of the body.
    request.raw.on('data', onData);
    request.raw.once('end', stop);
    socket.once('close', stop);
  }

  // Registered before the shutdown hook in app.ts, which puts `Connection: close` back on
  // answers sent while the app closes (those connections are not kept for draining).
  app.addHook('onSend', async (request, reply, payload) => {
    const socket = request.raw.socket;
    // Injected requests (tests, `svc openapi`) have no real socket to keep open.
    if (request.raw.complete || !(socket instanceof Socket) || socket.destroyed) return payload;
    const declared = declaredLength(request);
    const limit = request.routeOptions.bodyLimit ?? 0;
    // A body declared far past what would be drained cannot end in time: close as before.
    if (declared !== undefined && declared > limit + limits.maxBytes) return payload;
    if (reply.getHeader('connection') === 'close') reply.removeHeader('connection');
    drain(request, socket);
    return payload;
  });

  // A closing app does not wait for uploads it is discarding.
  app.addHook('preClose', async () => {
    for (const socket of draining) socket.destroy();
  });
}
