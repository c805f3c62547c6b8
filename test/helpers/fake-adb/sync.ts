// The sync service (`sync:`), as `adb push` and adbkit speak it: 4-byte ids and
// little-endian lengths. SEND path,mode → DATA chunks → DONE mtime answers OKAY; STAT and
// RECV answer from the device's files; QUIT ends.
import type { Socket } from 'node:net';
import type { FakeAndroidDevice } from './device.js';
import type { SocketReader } from './wire.js';

function failMessage(message: string): Buffer {
  const header = Buffer.alloc(8);
  header.write('FAIL', 0, 'ascii');
  header.writeUInt32LE(Buffer.byteLength(message), 4);
  return Buffer.concat([header, Buffer.from(message)]);
}

function packet(id: string, value: number, body?: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'ascii');
  header.writeUInt32LE(value, 4);
  return body ? Buffer.concat([header, body]) : header;
}

export async function serveSync(device: FakeAndroidDevice, socket: Socket, reader: SocketReader): Promise<void> {
  for (;;) {
    const header = await reader.read(8);
    if (!header) return;
    const id = header.toString('ascii', 0, 4);
    const length = header.readUInt32LE(4);
    if (id === 'QUIT') return;
    const argument = (await reader.read(length))?.toString('utf8') ?? '';
    if (id === 'SEND') {
      const path = argument.slice(0, argument.lastIndexOf(','));
      const chunks: Buffer[] = [];
      for (;;) {
        const chunkHeader = await reader.read(8);
        if (!chunkHeader) return;
        const kind = chunkHeader.toString('ascii', 0, 4);
        const size = chunkHeader.readUInt32LE(4);
        if (kind === 'DONE') break;
        if (kind !== 'DATA' || size > 64 * 1024) {
          socket.write(failMessage(`unexpected ${kind} in SEND`));
          return;
        }
        const data = await reader.read(size);
        if (!data) return;
        chunks.push(Buffer.from(data));
      }
      if (!path.startsWith('/data/local/tmp/') && !path.startsWith('/sdcard/')) {
        socket.write(failMessage(`couldn't create file: Permission denied`));
        continue;
      }
      device.files.set(path, Buffer.concat(chunks));
      socket.write(packet('OKAY', 0));
    } else if (id === 'STAT') {
      const file = device.files.get(argument);
      const stat = Buffer.alloc(12);
      if (file) {
        stat.writeUInt32LE(0o100644, 0);
        stat.writeUInt32LE(file.length, 4);
        stat.writeUInt32LE(Math.floor(Date.now() / 1000), 8);
      }
      socket.write(Buffer.concat([Buffer.from('STAT'), stat]));
    } else if (id === 'RECV') {
      const file = device.files.get(argument);
      if (!file) {
        socket.write(failMessage('No such file or directory'));
        continue;
      }
      for (let at = 0; at < file.length; at += 64 * 1024) {
        const part = file.subarray(at, at + 64 * 1024);
        socket.write(packet('DATA', part.length, part));
      }
      socket.write(packet('DONE', 0));
    } else {
      socket.write(failMessage(`unsupported sync request ${id}`));
      return;
    }
  }
}
