// The device's `reverse:` services (what `adb reverse` asks adbd for), kept as the simulated
// device's state: forward (optionally `norebind:`), killforward, killforward-all and
// list-forward. As on a real phone, the server first answers OKAY for the opened stream; then
// adbd answers OKAY or FAIL with its own message (list-forward: the list, length-prefixed).
// No socket is really forwarded: a test reaches the host side of a reverse directly.
import type { Socket } from 'node:net';
import type { FakeAndroidDevice } from './device.js';
import { lengthPrefixed, okay } from './wire.js';

const SOCKET = /^(tcp:\d+|localabstract:[^;]+|localreserved:[^;]+|localfilesystem:[^;]+|jdwp:\d+)$/;

function answer(socket: Socket, error?: string): void {
  okay(socket);
  socket.write(error === undefined ? Buffer.from('OKAY') : Buffer.concat([Buffer.from('FAIL'), lengthPrefixed(error)]));
}

export function serveReverse(device: FakeAndroidDevice, socket: Socket, service: string): void {
  const request = service.slice('reverse:'.length);
  if (request === 'list-forward') {
    okay(socket);
    socket.write(lengthPrefixed([...device.reverses].map(([remote, local]) => `(reverse) ${remote} ${local}\n`).join('')));
    return;
  }
  if (request === 'killforward-all') {
    device.reverses.clear();
    return answer(socket);
  }
  if (request.startsWith('killforward:')) {
    const remote = request.slice('killforward:'.length);
    return device.reverses.delete(remote) ? answer(socket) : answer(socket, `listener '${remote}' not found`);
  }
  if (request.startsWith('forward:')) {
    let spec = request.slice('forward:'.length);
    const norebind = spec.startsWith('norebind:');
    if (norebind) spec = spec.slice('norebind:'.length);
    const [remote, local, extra] = spec.split(';');
    if (extra !== undefined || !remote || !local || !SOCKET.test(remote) || !SOCKET.test(local)) return answer(socket, `malformed forward spec '${spec}'`);
    if (norebind && device.reverses.has(remote)) return answer(socket, 'cannot rebind existing socket');
    device.reverses.set(remote, local);
    return answer(socket);
  }
  answer(socket, `unknown reverse service '${request}'`);
}
