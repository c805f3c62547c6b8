// Keeping a bound phone usable: a phone's screen turns off after its timeout and locks, so
// screenshots go black and taps hit the lock screen. While a cloud device holds the phone it
// stays awake (`svc power stayon`), its lock screen is dismissed and its animations are off;
// the phone's own settings come back when the device is released. Against the fake ADB server.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { adbHostFor, startFakeAdb } from './helpers/adb.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';
import { centre, find } from './helpers/sim.js';

let t: HostTestDb;
let server: FakeAdbServer;
beforeAll(async () => {
  t = await openHostTestDb();
  server = await startFakeAdb([{ serial: 'sleepy', locked: true, behaviour: { screenOffAfterMs: 150 } }]);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

test('a bound phone is unlocked, stays awake past its screen timeout with animations off, and gets its own settings back on release', async () => {
  const phone = server.devices.get('sleepy')!;
  phone.settings.set('global/stay_on_while_plugged_in', '0');
  phone.settings.set('global/window_animation_scale', '1.0');
  const host = adbHostFor(t.db, [server]);
  const id = await t.createDevice();
  await host.place(id);
  await host.boot(id);
  expect(phone.power).toMatchObject({ awake: true, locked: false });
  for (const name of ['window_animation_scale', 'transition_animation_scale', 'animator_duration_scale']) expect(phone.settings.get(`global/${name}`)).toBe('0');

  const d = await host.driver(id);
  await d.openApp('com.example.shop');
  const [x, y] = centre(await find(d, 'row_beans'));
  await new Promise((resolve) => setTimeout(resolve, 300)); // past the phone's own screen timeout
  await d.tap(x, y);
  expect((await find(d, 'title')).text).toBe('Espresso beans');

  // A boot run again (a worker took over after a crash) keeps the phone's own values, not ours.
  await host.boot(id);
  await host.shutdown(id);
  expect(phone.settings.get('global/stay_on_while_plugged_in')).toBe('0');
  expect(phone.settings.get('global/window_animation_scale')).toBe('1.0');
  expect(phone.settings.has('global/transition_animation_scale')).toBe(false);
  expect(phone.settings.has('global/animator_duration_scale')).toBe(false);
  expect(await host.placement(id)).toBeNull();
});
