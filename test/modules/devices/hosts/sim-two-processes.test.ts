// Any process can drive any simulated device: two hosts on two separate connections to one
// database (as a `serve` and a `worker` process would have) place, boot and drive the same
// device, and concurrent actions from both all land.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Db } from '../../../../src/db/database.js';
import { DEMO_APP_PACKAGE } from '../../../../src/modules/devices/hosts/sim/catalogue.js';
import { SimHost } from '../../../../src/modules/devices/hosts/sim/sim-host.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { decode } from './helpers/pixels.js';
import { find, tapOn } from './helpers/sim.js';

let t: HostTestDb;
let other: Db;
beforeAll(async () => {
  t = await openHostTestDb();
  other = t.connect();
});
afterAll(() => t.close());

test('a device booted through one process is driven through another, and each sees the other’s changes', async () => {
  const worker = new SimHost({ db: t.db, bootMs: 0 });
  const serve = new SimHost({ db: other, bootMs: 0 });
  const id = await t.createDevice();
  await worker.place(id);
  await worker.boot(id);
  expect(await serve.placement(id)).toMatchObject({ status: 'ready' });

  const viaServe = await serve.driver(id);
  const viaWorker = await worker.driver(id);
  const homePicture = (await viaWorker.screenshot()).data;
  await tapOn(viaServe, 'Corner Shop');
  expect(await viaWorker.currentApp()).toMatchObject({ package: DEMO_APP_PACKAGE });
  expect((await viaWorker.screenshot()).data.equals(homePicture)).toBe(false);
  await tapOn(viaWorker, 'Checkout');
  await tapOn(viaServe, 'full_name');
  await viaWorker.typeText('Typed in the worker');
  expect((await find(viaServe, 'full_name')).text).toBe('Typed in the worker');

  // The pictures each process renders are the same picture.
  // The status bar shows the minute (and a battery level by the minute), so a pair taken across
  // a minute's change differs there: then a second pair is taken, inside one minute.
  const all = { left: 0, top: 0, right: 1080, bottom: 2400 };
  let same = false;
  for (let attempt = 0; attempt < 2 && !same; attempt += 1) {
    const a = await decode((await viaServe.screenshot()).data);
    const b = await decode((await viaWorker.screenshot()).data);
    same = a.region(all).equals(b.region(all));
  }
  expect(same).toBe(true);

  await serve.shutdown(id);
  await expect(viaWorker.uiTree()).rejects.toMatchObject({ code: 'device_not_ready' });
});

test('concurrent typing from both processes loses nothing (compare-and-set on the device row)', async () => {
  const one = new SimHost({ db: t.db, bootMs: 0 });
  const two = new SimHost({ db: other, bootMs: 0 });
  const id = await t.createDevice();
  await one.place(id);
  await one.boot(id);
  const [a, b] = [await one.driver(id), await two.driver(id)];
  await a.openApp(DEMO_APP_PACKAGE, { activity: '.CheckoutActivity' });
  await tapOn(b, 'street');
  const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
  await Promise.all(letters.map((letter, i) => (i % 2 ? a : b).typeText(letter)));
  const typed = (await find(a, 'street')).text;
  expect(typed).toHaveLength(letters.length);
  expect([...typed].sort().join('')).toBe(letters.join(''));
});
