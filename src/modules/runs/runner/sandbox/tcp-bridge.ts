// On `adb` hosts the macro's own `adb` reaches the device's ADB server (decisions.md §10,
// ANDROID_ADB_SERVER_ADDRESS/_PORT): inside the sandbox that is 127.0.0.1:5037, which socat
// carries to this Unix socket, piped here to the one server the run's device is on.
import { connect, createServer } from 'node:net';
import { type Listening, listenOnSocket } from './unix-server.js';

export async function openTcpBridge(socketPath: string, host: string, port: number, owner: { uid: number; gid: number } | null): Promise<Listening> {
  const server = createServer((inside) => {
    const outside = connect({ host, port });
    inside.pipe(outside).pipe(inside);
    const end = () => {
      inside.destroy();
      outside.destroy();
    };
    inside.on('error', end).on('close', end);
    outside.on('error', end).on('close', end);
  });
  return listenOnSocket(server, socketPath, owner);
}
