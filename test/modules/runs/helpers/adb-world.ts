// A cloud-run world on DEVICE_HOST=adb: the fake ADB server (the real host protocol on
// 127.0.0.1) with one phone, the app listening with its own workers (as `serve` runs them), a
// user with a run key, an IP-echo server and an authenticated HTTP proxy, plus what the relay
// tests need: an assignment whose relay port is free.
import { createServer } from 'node:net';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../../../src/db/database.js';
import { ROOMY_LIMITS } from '../../../helpers/code-sync.js';
import type { FakeAndroidDevice } from '../../../helpers/fake-adb/device.js';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { type Running, startEchoServer, startHttpProxy } from '../../../helpers/proxy-servers.js';
import { createKey, signUp, type SignedUpUser, withKey } from '../../../helpers/users.js';
import { snapshotBody } from '../../../helpers/zip.js';
import { startFakeAdb } from '../../devices/hosts/helpers/adb.js';
import { listeningApp } from '../../mcp/helpers/client.js';
import { tempDir } from './runner.js';

export const SERIAL = 'emulator-5554';

export interface AdbWorld {
  t: Awaited<ReturnType<typeof listeningApp>>;
  adb: FakeAdbServer;
  phone: FakeAndroidDevice;
  user: SignedUpUser;
  /** A key with macros:run, runs:read and proxies. */
  headers: Record<string, string>;
  echo: Running;
  /** Accepts only `username`/`password`; records every username it saw. */
  proxy: Running & { usernames: string[] };
  close(): Promise<void>;
}

export async function adbWorld(credentials: { username: string; password: string }): Promise<AdbWorld> {
  const adb = await startFakeAdb([{ serial: SERIAL }]);
  const echo = await startEchoServer();
  const proxy = await startHttpProxy((username, password) => username === credentials.username && password === credentials.password);
  const t = await listeningApp({
    env: {
      ...ROOMY_LIMITS,
      DEVICE_HOST: 'adb',
      ADB_SERVERS: `127.0.0.1:${adb.port}`,
      RUNS_DIR: tempDir(),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      PROXY_CHECK_URL: `http://127.0.0.1:${echo.port}/`,
      PROXY_CHECK_TIMEOUT_MS: '5000',
    },
    geolocator: { locate: (ip) => ({ country: ip === '127.0.0.1' ? 'ZZ' : null, city: null, asn: null }) },
  });
  const user = await signUp(t.app);
  const headers = withKey((await createKey(t.app, user)).key);
  return {
    t,
    adb,
    phone: adb.devices.get(SERIAL)!,
    user,
    headers,
    echo,
    proxy,
    async close() {
      await t.close();
      await Promise.all([adb.close(), echo.close(), proxy.close()]);
    },
  };
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The relay port is 20000 + assignment id mod 10000. So that runs of this suite on one
 * machine (other checkouts, CI) do not meet on one port, the next assignment id is set to a
 * random one whose port is free now.
 */
async function nextAssignmentIdOnFreePort(db: Db): Promise<void> {
  for (let tries = 0; tries < 50; tries += 1) {
    const id = 1000 + Math.floor(Math.random() * 9000);
    if (!(await portIsFree(20_000 + id))) continue;
    if (db.dialect === 'postgres') {
      await sql`alter table proxy_assignments alter column id restart with ${sql.lit(id)}`.execute(db.kysely);
    } else {
      await sql`delete from sqlite_sequence where name = 'proxy_assignments'`.execute(db.kysely);
      await sql`insert into sqlite_sequence (name, seq) values ('proxy_assignments', ${id - 1})`.execute(db.kysely);
    }
    return;
  }
  throw new Error('no free relay port found');
}

/** Adds the world's proxy with these credentials and assigns it to the device; answers the relay port. */
export async function assignProxy(w: AdbWorld, deviceId: number, credentials: { username: string; password: string }): Promise<number> {
  const added = await w.t.app.inject({ method: 'POST', url: '/api/proxy', headers: w.headers, payload: { host: '127.0.0.1', port: w.proxy.port, ...credentials } });
  expect(added.statusCode, added.body).toBe(201);
  await nextAssignmentIdOnFreePort(w.t.db);
  const assigned = await w.t.app.inject({ method: 'POST', url: '/api/proxy/assignments', headers: w.headers, payload: { proxy_id: added.json().id, emulator_device_id: deviceId } });
  expect(assigned.statusCode, assigned.body).toBe(201);
  const port = 20_000 + (assigned.json().id % 10_000);
  const info = await w.t.app.inject({ url: `/api/proxy/assignments/${assigned.json().id}/connection-info`, headers: w.headers });
  // The port the connection info documents is the one the run uses.
  expect(info.json().relay).toMatchObject({ mode: 'local_relay', local: { scheme: 'http', host: '127.0.0.1', port } });
  return port;
}

export async function blockMacro(w: AdbWorld, steps: unknown[]): Promise<number> {
  const res = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.user.auth, payload: { name: 'Blocks', kind: 'block', blocks: { version: 1, steps } } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

export async function pythonMacro(w: AdbWorld, code: string): Promise<number> {
  const macro = await w.t.app.inject({ method: 'POST', url: '/api/macros', headers: w.user.auth, payload: { name: 'Python', kind: 'python' } });
  const upload = await w.t.app.inject({ method: 'POST', url: `/api/macros/${macro.json().id}/code-snapshot`, headers: w.headers, payload: snapshotBody([{ name: 'main.py', data: code }], { entry_path: 'main.py' }) });
  expect(upload.statusCode, upload.body).toBe(201);
  return macro.json().id;
}

export async function startRun(w: AdbWorld, deviceId: number, body: Record<string, unknown>): Promise<{ id: number; execution_id: string }> {
  const res = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${deviceId}/run`, headers: w.headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export const getRun = async (w: AdbWorld, runId: number) => (await w.t.app.inject({ url: `/api/hosted/runs/${runId}`, headers: w.headers })).json();

export async function ended(w: AdbWorld, runId: number) {
  await expect.poll(async () => (await getRun(w, runId)).state, { timeout: 30_000, interval: 25 }).toMatch(/^(finished|failed|stopped)$/);
  return getRun(w, runId);
}

/** What the phone shows of the relay: its global proxy setting and its reverses. */
export const phoneRoute = (phone: FakeAndroidDevice) => ({ http_proxy: phone.settings.get('global/http_proxy') ?? null, reverses: Object.fromEntries(phone.reverses) });
