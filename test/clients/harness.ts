// The real service listening on 127.0.0.1 (a fresh database, the background workers running,
// simulated cloud devices that boot at once), and a key holder's world in it: a user, keys of
// chosen scopes, cloud devices and block macros. The SDK and the `svc` commands talk to it over
// HTTP as any script would.
import type { AddressInfo } from 'node:net';
import { allModules } from '../../src/build-modules.js';
import type { BackgroundWorker } from '../../src/core/worker.js';
import { createTestApp, type TestApp, type TestStorage } from '../helpers/app.js';
import { createCloudDevice } from '../helpers/resources.js';
import { createKey, signUp, type SignedUpUser } from '../helpers/users.js';
import { removeTempDirs, tempDir } from '../modules/runs/helpers/runner.js';

/** Requests per key in one window. The test clock stands still, so a key's window never ends unless a test moves it. */
export const PER_KEY_LIMIT = 60;

export interface ClientWorld {
  t: TestApp & { storage: TestStorage };
  baseUrl: string;
  close(): Promise<void>;
}

export async function startService(env: Record<string, string> = {}): Promise<ClientWorld> {
  const t = await createTestApp({ env: { RUNS_DIR: tempDir(), SIM_BOOT_MS: '0', RATE_LIMIT_PER_KEY: String(PER_KEY_LIMIT), RATE_LIMIT_PER_ACCOUNT: '100000', ...env } });
  const workers: BackgroundWorker[] = allModules(t.app.modules).flatMap((m) => m.workers ?? []);
  for (const w of workers) w.start();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return {
    t,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      await t.close();
      removeTempDirs();
    },
  };
}

export type Step = Record<string, unknown>;

export async function blockMacro(world: ClientWorld, user: SignedUpUser, name: string, steps: Step[]): Promise<number> {
  const res = await world.t.app.inject({ method: 'POST', url: '/api/macros', headers: user.auth, payload: { name, kind: 'block', blocks: { version: 1, steps } } });
  if (res.statusCode !== 201) throw new Error(`macro not created: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

export async function cloudDevice(world: ClientWorld, user: SignedUpUser, name = 'Cloud phone'): Promise<number> {
  return (await createCloudDevice(world.t.app, user, { name })).id as number;
}

export async function keyFor(world: ClientWorld, user: SignedUpUser, scopes: string[] = []): Promise<string> {
  return (await createKey(world.t.app, user, { scopes })).key;
}

export const newUser = (world: ClientWorld) => signUp(world.t.app);

/** A program that logs three lines and finishes; one that logs and then fails; one that waits ten minutes. */
export const PROGRAMS = {
  completes: [{ type: 'log', message: 'one' }, { type: 'log', message: 'two' }, { type: 'log', message: 'three' }],
  fails: [{ type: 'log', message: 'looking for the button' }, { type: 'tap', text: 'No such button anywhere' }],
  waits: [{ type: 'log', message: 'waiting' }, { type: 'wait', ms: 600_000 }],
} satisfies Record<string, Step[]>;

/** The log of PROGRAMS.completes: the block interpreter writes one line per step. */
export const COMPLETES_LOG = ['step 1/3: log: one', 'step 2/3: log: two', 'step 3/3: log: three'];
