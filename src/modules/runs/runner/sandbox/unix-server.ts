// Listening on a Unix socket that one run's sandbox connects to, and closing it with every
// connection still open. The socket is the run user's (chown), so the run can connect and no
// other run can: the folder holding it passes others through (0711) but they cannot list it.
import { chown } from 'node:fs/promises';
import type { Server } from 'node:net';
import type { Socket } from 'node:net';

export interface Listening {
  close(): Promise<void>;
}

export async function listenOnSocket(server: Server, path: string, owner: { uid: number; gid: number } | null): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (owner) await chown(path, owner.uid, owner.gid);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
