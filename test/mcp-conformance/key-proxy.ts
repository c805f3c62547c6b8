// The conformance suite connects with no credential (its client takes only a URL), so it talks
// to the service through this small proxy on 127.0.0.1, which adds the test's API key and
// passes everything else on untouched: method, path, body and every header, `Host` and
// `Origin` included, so the suite's DNS-rebinding check reaches the service as it sent it.
// The service's BASE_URL is the proxy's address, as behind any reverse proxy.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface KeyProxy {
  url: string;
  close(): Promise<void>;
}

export async function startKeyProxy(port: number, target: { port: number }, key: string): Promise<KeyProxy> {
  const server: Server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, 'x-api-key': key };
    const upstream = request({ host: '127.0.0.1', port: target.port, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
