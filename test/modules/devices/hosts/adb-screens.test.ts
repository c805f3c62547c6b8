// What a real phone's screen reports that the driver must read as it is: text over several
// lines in a UI dump (character references), a rotated display. Against the fake ADB server,
// whose phone behaves as a real one does (test/helpers/fake-adb/device.ts, FakeBehaviour).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DeviceDriver } from '../../../../src/modules/devices/hosts/types.js';
import { NOTES_PACKAGE, notesApp } from '../../../helpers/fake-adb/apps.js';
import type { FakeAndroidDevice } from '../../../helpers/fake-adb/device.js';
import type { FakeAdbServer } from '../../../helpers/fake-adb/server.js';
import { bootedAdb, startFakeAdb } from './helpers/adb.js';
import { type HostTestDb, openHostTestDb } from './helpers/database.js';

let t: HostTestDb;
let server: FakeAdbServer;
let phone: FakeAndroidDevice;
let d: DeviceDriver;

beforeAll(async () => {
  t = await openHostTestDb();
  server = await startFakeAdb([{ serial: 'emulator-5554', apps: [notesApp] }]);
  phone = server.devices.get('emulator-5554')!;
  d = (await bootedAdb(t, [server])).driver;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('character references in UI dumps', () => {
  test('text over several lines comes back as the app shows it, and find-by-text can match it', async () => {
    await d.openApp(NOTES_PACKAGE, { activity: '.NotesActivity' });
    const tree = await d.uiTree();
    const note = tree.find((e) => e.resource_id === `${NOTES_PACKAGE}:id/note`);
    expect(note?.text).toBe('Shopping\nMilk\tx2');
    expect(tree.some((e) => e.text.includes('&#'))).toBe(false);
    // The fake wrote references, as a phone does: the test would pass without them otherwise.
    expect(phone.behaviour.characterReferences).toBe(true);
  });
});
