// The run's way to its device (decisions.md §10): inside the sandbox `SVC_DEVICE_URL` is
// `http://127.0.0.1:8080/…/devices/{id}`, which socat carries to this Unix socket; here each
// request is passed on to the device RPC at BASE_URL (any `serve` process, http or https).
// Only `POST` to the run's own device path passes: the rest of the API is not reachable from
// a run, whatever it sends (404 `not_found`, nothing forwarded).
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type Listening, listenOnSocket } from './unix-server.js';

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: status === 404 ? 'not_found' : 'bad_gateway', message } }));
}

/** Serves the bridge at `socketPath`, forwarding the run's device calls to `deviceUrl`. */
export async function openRpcBridge(socketPath: string, deviceUrl: string, owner: { uid: number; gid: number } | null): Promise<Listening> {
  const target = new URL(deviceUrl);
  const prefix = `${target.pathname.replace(/\/+$/, '')}/`;
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    if (req.method !== 'POST' || !path.startsWith(prefix) || path.includes('..')) {
      req.resume();
      return refuse(res, 404, 'only the device RPC of this run is reachable from a run');
    }
    const headers = { ...req.headers, host: target.host };
    const upstream = send({ protocol: target.protocol, hostname: target.hostname, port: target.port, method: 'POST', path, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => (res.headersSent ? res.destroy() : refuse(res, 502, `the device RPC could not be reached: ${error.message}`)));
    req.pipe(upstream);
  });
  return listenOnSocket(server, socketPath, owner);
}
