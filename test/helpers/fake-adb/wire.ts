// The ADB host protocol's framing, server side: requests are 4 hex digits of length then
// the text; answers are OKAY, or FAIL with a length-prefixed message.
import type { Socket } from 'node:net';

/** Reads exact byte counts from a socket, waiting for more data as needed. */
export class SocketReader {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.notify();
    });
    socket.on('end', () => this.finish());
    socket.on('close', () => this.finish());
    socket.on('error', () => this.finish());
  }

  private finish(): void {
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Exactly `n` bytes, or null when the peer closed first. */
  async read(n: number): Promise<Buffer | null> {
    while (this.buffer.length < n) {
      if (this.ended) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  /** One `hhhh<text>` request, or null at the end of the connection. */
  async request(): Promise<string | null> {
    const header = await this.read(4);
    if (!header) return null;
    const length = Number.parseInt(header.toString('ascii'), 16);
    if (!Number.isInteger(length)) return null;
    const body = await this.read(length);
    return body ? body.toString('utf8') : null;
  }
}

export function lengthPrefixed(text: string | Buffer): Buffer {
  const body = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0'), 'ascii'), body]);
}

export function okay(socket: Socket, value?: string): void {
  socket.write(value === undefined ? Buffer.from('OKAY') : Buffer.concat([Buffer.from('OKAY'), lengthPrefixed(value)]));
}

export function fail(socket: Socket, message: string): void {
  socket.write(Buffer.concat([Buffer.from('FAIL'), lengthPrefixed(message)]));
}
