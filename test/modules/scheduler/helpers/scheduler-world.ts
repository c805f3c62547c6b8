// The scheduler's tests share one world: an app on an injected clock with fire passes of four
// schedules at most (so racing workers split a fire time into several batches), an account
// with a one-step block macro, and the calls the tests make on it through the routes.
import { afterAll, beforeAll, expect } from 'vitest';
import { ManualClock } from '../../../../src/lib/clock.js';
import { createTestApp, type TestApp, type TestStorage } from '../../../helpers/app.js';
import { createCloudDevice, createMacro } from '../../../helpers/resources.js';
import { signUp, type SignedUpUser } from '../../../helpers/users.js';

export type App = TestApp & { storage: TestStorage };
export const START = Date.parse('2026-03-27T12:00:30Z');

export interface Occurrence {
  fire_at: string;
  device_id?: number;
  outcome: string;
  reason?: string;
  execution_id?: string;
  run_id?: number;
}

export interface SchedulerWorld {
  t: App;
  user: SignedUpUser;
  macroId: number;
  worker(app?: App, name?: string): ReturnType<App['app']['modules']['scheduler']['services']['newWorker']>;
  device(): Promise<number>;
  schedule(payload: object): Promise<{ id: number; next_fire_at: string }>;
  occurrences(scheduleId: number): Promise<Occurrence[]>;
  endRuns(state: 'finished' | 'failed'): Promise<void>;
}

/** Opens the world before the file's tests and closes it after them. */
export function schedulerWorld(): SchedulerWorld {
  const w: SchedulerWorld = {
    t: undefined as unknown as App,
    user: undefined as unknown as SignedUpUser,
    macroId: 0,
    worker: (app: App = w.t, name = 'w') => app.app.modules.scheduler.services.newWorker(name),
    device: async () => (await createCloudDevice(w.t.app, w.user, { name: 'Timer phone' })).id as number,
    async schedule(payload: object) {
      const res = await w.t.app.inject({ method: 'POST', url: '/api/schedules', headers: w.user.auth, payload: { macro_id: w.macroId, ...payload } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: number; next_fire_at: string };
    },
    async occurrences(scheduleId: number) {
      const res = await w.t.app.inject({ url: `/api/schedules/${scheduleId}/occurrences?page_size=200`, headers: w.user.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().rows as Occurrence[];
    },
    /** What a run worker writes when a run ends: the device is free again. */
    async endRuns(state: 'finished' | 'failed') {
      await w.t.db.kysely.updateTable('cloud_runs').set({ state, finished_at: w.t.clock.now() }).where('state', 'in', ['launching', 'running']).execute();
    },
  };
  beforeAll(async () => {
    w.t = await createTestApp({ clock: new ManualClock(START), env: { SCHEDULE_MISFIRE_GRACE_S: '300', SCHEDULER_BATCH: '4' } });
    w.user = await signUp(w.t.app);
    w.macroId = (await createMacro(w.t.app, w.user, { name: 'Tick', kind: 'block' })).id;
    await w.t.app.inject({ method: 'PUT', url: `/api/macros/${w.macroId}`, headers: w.user.auth, payload: { blocks: { version: 1, steps: [{ type: 'log', message: 'tick' }] } } });
  });
  afterAll(async () => {
    await w.t?.close();
  });
  return w;
}
