// A test app listening on 127.0.0.1 with BASE_URL set to its own address (a run's svc_device,
// the tool server's discovery documents and the OAuth token endpoint name it). The port is
// chosen free first, since BASE_URL is read when the app is built; another process of the
// test run may take it before the app listens, and then the app is built again on another.
import { createServer } from 'node:net';
import { createTestApp, type TestAppOptions } from './app.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const ATTEMPTS = 5;

export async function listeningTestApp(options: TestAppOptions = {}): Promise<{ t: Awaited<ReturnType<typeof createTestApp>>; port: number; baseUrl: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const t = await createTestApp({ ...options, env: { ...options.env, BASE_URL: baseUrl } });
    try {
      await t.app.listen({ host: '127.0.0.1', port });
      return { t, port, baseUrl };
    } catch (error) {
      await t.close();
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= ATTEMPTS) throw error;
    }
  }
}
