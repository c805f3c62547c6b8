// Shortcuts for driving a simulated device the way a macro would: find an element in the
// UI tree by its text or description, and tap its centre.
import { expect } from 'vitest';
import { SimHost, type SimHostOptions } from '../../../../../src/modules/devices/hosts/sim/sim-host.js';
import type { DeviceDriver, UiElement } from '../../../../../src/modules/devices/hosts/types.js';
import type { HostTestDb } from './database.js';

export async function bootedSim(t: HostTestDb, options: Partial<SimHostOptions> = {}) {
  const host = new SimHost({ db: t.db, bootMs: 0, ...options });
  const id = await t.createDevice();
  await host.place(id);
  await host.boot(id);
  return { host, id, driver: await host.driver(id) };
}

/** The element with this text, description, id or resource id (`…:id/<label>`); a clickable one first, as a finger would pick. */
export async function find(driver: DeviceDriver, label: string): Promise<UiElement> {
  const tree = await driver.uiTree();
  const matches = tree.filter((e) => e.text === label || e.content_desc === label || e.element_id === label || e.resource_id.endsWith(`:id/${label}`));
  const found = matches.find((e) => e.clickable) ?? matches[0];
  expect(found, `no element "${label}" in ${tree.map((e) => e.text || e.content_desc || e.element_id).join(' | ')}`).toBeDefined();
  return found as UiElement;
}

export function centre(e: UiElement): [number, number] {
  return [Math.floor((e.bounds.left + e.bounds.right) / 2), Math.floor((e.bounds.top + e.bounds.bottom) / 2)];
}

/** Taps the element with this text or description; answers what the tap hit. */
export async function tapOn(driver: DeviceDriver, label: string): Promise<UiElement | null> {
  const [x, y] = centre(await find(driver, label));
  return driver.tap(x, y);
}

export async function screenTitle(driver: DeviceDriver): Promise<string> {
  const current = await driver.currentApp();
  const tree = await driver.uiTree();
  return `${current?.package}:${tree.find((e) => e.element_id === 'title' || e.element_id === 'dialog_title')?.text ?? ''}`;
}
