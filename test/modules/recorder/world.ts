// One recorder world per test file: the app listening with its own workers (devices boot, runs
// run), a small app installed from SIM_APPS_DIR whose screen has one element for each rung of
// §18's order, two accounts, and shortcuts for the recorder's routes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { createCloudDevice } from '../../helpers/resources.js';
import { signUp, type SignedUpUser } from '../../helpers/users.js';
import { listeningApp } from '../mcp/helpers/client.js';

export const PKG = 'com.example.rec';
const box = (left: number, top: number, right: number, bottom: number) => ({ left, top, right, bottom });
const el = (id: string, extra: object) => ({ id, class: 'android.widget.TextView', text: '', resource_id: '', content_desc: '', clickable: false, editable: false, ...extra });

/** Where each rung's element sits (centres). */
export const AT = {
  ok: { x: 540, y: 400 }, // resource_id `ok` (unique), text "Continue"
  hello: { x: 540, y: 560 }, // text "Hello" only
  menu: { x: 540, y: 720 }, // desc "Menu" only; opens the "Rate us" dialog
  row0: { x: 540, y: 880 }, // resource_id `row`, text "Item": twice on the screen
  row1: { x: 540, y: 1040 },
  blank: { x: 540, y: 1360 }, // no attribute at all: an image crop
  name: { x: 540, y: 1200 }, // an editable field, resource_id `name` (above the keyboard, which covers y ≥ 1500)
  later: { x: 300, y: 1760 }, // on the dialog: its button (android:id/button2, "Later"), which closes it
  nothing: { x: 900, y: 1760 }, // no element: coordinates
};

export const APP = {
  package: PKG,
  label: 'Recorder Test',
  version_name: '1.0',
  screens: [
    {
      id: 'home',
      title: 'Home',
      activity: `${PKG}.Home`,
      elements: [
        el('ok', { class: 'android.widget.Button', text: 'Continue', resource_id: `${PKG}:id/ok`, bounds: box(100, 340, 980, 460), clickable: true, to: 'second' }),
        el('hello', { text: 'Hello', bounds: box(100, 500, 980, 620), clickable: true }),
        el('menu', { class: 'android.widget.ImageButton', content_desc: 'Menu', bounds: box(100, 660, 980, 780), clickable: true, to: 'nag' }),
        el('row_0', { text: 'Item', resource_id: `${PKG}:id/row`, bounds: box(100, 820, 980, 940), clickable: true }),
        el('row_1', { text: 'Item', resource_id: `${PKG}:id/row`, bounds: box(100, 980, 980, 1100), clickable: true }),
        el('blank', { class: 'android.view.View', bounds: box(440, 1300, 640, 1420), clickable: true }),
        el('name', { class: 'android.widget.EditText', resource_id: `${PKG}:id/name`, bounds: box(100, 1140, 980, 1260), clickable: true, editable: true }),
      ],
    },
    {
      id: 'nag',
      title: 'Rate us',
      activity: `${PKG}.Home`,
      elements: [
        el('nag_title', { text: 'Rate Recorder Test', resource_id: 'android:id/alertTitle', bounds: box(100, 1500, 980, 1600) }),
        el('later', { class: 'android.widget.Button', text: 'Later', resource_id: 'android:id/button2', bounds: box(100, 1700, 500, 1820), clickable: true, to: 'back' }),
      ],
    },
    {
      id: 'second',
      title: 'Second',
      activity: `${PKG}.Second`,
      elements: [el('second_title', { text: 'Second screen', resource_id: `${PKG}:id/second_title`, bounds: box(100, 340, 980, 460) })],
    },
  ],
};

export interface RecorderWorld {
  t: Awaited<ReturnType<typeof listeningApp>>;
  owner: SignedUpUser;
  stranger: SignedUpUser;
  /** A new ready cloud device of the owner, showing the test app's home screen. */
  readyDevice(): Promise<number>;
}

export function useRecorderWorld(env: Record<string, string> = {}): RecorderWorld {
  const world = {} as RecorderWorld;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recorder-apps-'));
    writeFileSync(join(dir, 'rec.json'), JSON.stringify(APP));
    world.t = await listeningApp({ env: { SIM_APPS_DIR: dir, SIM_SEED: '3', RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ACCOUNT: '100000', ...env } });
    world.owner = await signUp(world.t.app);
    world.stranger = await signUp(world.t.app);
    world.readyDevice = async () => {
      const id = (await createCloudDevice(world.t.app, world.owner)).id as number;
      const start = await world.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/start`, headers: world.owner.auth });
      expect(start.statusCode, start.body).toBe(202);
      await world.t.app.modules.devices.services.lifecycle.waitUntilReady(id, { timeoutMs: 20_000 });
      const driver = await world.t.app.modules.devices.services.host.driver(id);
      await driver.openApp(PKG);
      return id;
    };
  });
  afterAll(async () => {
    await world.t?.close();
  });
  return world;
}

export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The recorder's routes as the console calls them, with the owner's session unless `who` is given. */
export function routes(w: RecorderWorld) {
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers?: Record<string, string>): Promise<Answer> => {
    const res = await w.t.app.inject({ method, url, headers: headers ?? w.owner.auth, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : res.rawPayload };
  };
  return {
    call,
    start: (deviceId: number, headers?: Record<string, string>) => call('POST', `/api/hosted/devices/${deviceId}/recording`, {}, headers),
    input: (rid: string, body: unknown) => call('POST', `/api/hosted/recordings/${rid}/inputs`, body),
    check: (rid: string, body: unknown) => call('POST', `/api/hosted/recordings/${rid}/checks`, body),
    get: (rid: string, headers?: Record<string, string>) => call('GET', `/api/hosted/recordings/${rid}`, undefined, headers),
    stop: (rid: string) => call('POST', `/api/hosted/recordings/${rid}/stop`),
    save: (rid: string, body: unknown) => call('POST', `/api/hosted/recordings/${rid}/save`, body),
    replay: (rid: string, body: unknown) => call('POST', `/api/hosted/recordings/${rid}/replay`, body),
  };
}
