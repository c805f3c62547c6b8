// SIM_EXTRA_APPS: a deployment (the authoring and map benchmarks) asks for Field Guide on
// every simulated device; without it, only the demo app and the system settings are there.
import { afterEach, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { signUp } from '../../helpers/users.js';
import { allModules } from '../../../src/build-modules.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function installedPackages(env: Record<string, string>): Promise<string[]> {
  t = await createTestApp({ env: { SIM_BOOT_MS: '0', ...env } });
  const user = await signUp(t.app);
  const id = (await createCloudDevice(t.app, user)).id;
  await t.app.inject({ method: 'POST', url: `/api/hosted/devices/${id}/start`, headers: user.auth });
  // The app's own workers place and boot it, with the host its configuration built.
  const workers = allModules(t.app.modules).flatMap((m) => m.workers ?? []);
  for (const w of workers) w.start();
  try {
    await expect.poll(async () => (await t!.app.inject({ url: `/api/hosted/devices/${id}/apps`, headers: user.auth })).statusCode, { timeout: 10_000 }).toBe(200);
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
  const res = await t.app.inject({ url: `/api/hosted/devices/${id}/apps`, headers: user.auth });
  return res.json().items.map((a: { package: string }) => a.package);
}

test('with SIM_EXTRA_APPS=field-guide a cloud device has Field Guide installed', async () => {
  expect(await installedPackages({ SIM_EXTRA_APPS: 'field-guide' })).toEqual(expect.arrayContaining(['com.example.shop', 'com.example.fieldguide']));
});

test('without it, Field Guide is not installed', async () => {
  const packages = await installedPackages({});
  expect(packages).toContain('com.example.shop');
  expect(packages).not.toContain('com.example.fieldguide');
});
