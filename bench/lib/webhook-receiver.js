// @ts-check
// The webhook benchmark's receiving end: a throw-away CA made with the openssl binary and a
// local HTTPS receiver that answers 200 at once and keeps the arrival times of each webhook-id.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/** A CA and a server certificate for 127.0.0.1 and localhost (P-256, two days), as test/helpers/webhooks.ts makes them. */
export function makeCa() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ca-'));
  const file = (name) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const ossl = (...args) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    ossl('req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2', '-subj', '/CN=Webhook bench CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
    ossl('req', ...ec, '-keyout', file('srv.key'), '-out', file('srv.csr'), '-subj', '/CN=localhost');
    writeFileSync(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
    ossl('x509', '-req', '-in', file('srv.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('srv.pem'), '-days', '2', '-extfile', file('ext.cnf'));
    return { caPem: readFileSync(file('ca.pem'), 'utf8'), key: readFileSync(file('srv.key'), 'utf8'), cert: readFileSync(file('srv.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** HTTPS receiver answering 200 at once; keeps the arrival times of each webhook-id. */
export async function startReceiver(ca) {
  const arrivals = new Map();
  const listeners = new Set();
  let requests = 0;
  const server = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const at = performance.now();
      requests += 1;
      const id = String(req.headers['webhook-id']);
      let times = arrivals.get(id);
      if (!times) arrivals.set(id, (times = []));
      times.push(at);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      for (const listener of listeners) listener(id, times);
    });
  });
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the receiver is not listening on a TCP port');
  const port = address.port;
  return {
    url: `https://127.0.0.1:${port}/hook`,
    arrivals,
    get requests() {
      return requests;
    },
    /** Resolves once `test(arrivals)` holds, checked now and after every arrival. */
    until(test, timeoutMs, what) {
      if (test()) return Promise.resolve();
      return /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(listener);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`));
        }, timeoutMs);
        const listener = () => {
          if (!test()) return;
          clearTimeout(timer);
          listeners.delete(listener);
          resolve();
        };
        listeners.add(listener);
      }));
    },
    close: () =>
      /** @type {Promise<void>} */ (new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}
