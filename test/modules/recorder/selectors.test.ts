// The recorder's selector choice (decisions.md §18), rung by rung, on a screen made for it
// (world.ts): resource_id, text, desc, resource_id or text with index (a tie broken by index),
// an image crop in the library when nothing names the element, coordinates last and fragile;
// then the other inputs (typed text, keys, swipes), checks, candidates with their match counts,
// choosing another candidate, deleting a step and a step's frame.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { AT, PKG, routes, useRecorderWorld } from './world.js';

const w = useRecorderWorld();
const r = routes(w);
let deviceId: number;
let rid: string;

beforeEach(async () => {
  deviceId = await w.readyDevice();
  const started = await r.start(deviceId);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  rid = started.body.id;
});
afterEach(async () => {
  await r.stop(rid);
});

const tap = async (point: { x: number; y: number }) => {
  const answer = await r.input(rid, { type: 'tap', ...point });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.step;
};
const kinds = (step: { candidates: { kind: string }[] }) => step.candidates.map((c) => c.kind);

test('a recording starts empty, holding the device, and reads back', async () => {
  const got = await r.get(rid);
  expect(got.status).toBe(200);
  expect(got.body).toMatchObject({ id: rid, device_id: deviceId, state: 'recording', ended_at: null, steps: [] });
  expect(rid).toMatch(/^rec_[0-9a-f]{24}$/);
  expect(Date.parse(got.body.expires_at) - Date.parse(got.body.started_at)).toBe(15 * 60_000);
  const current = await r.call('GET', `/api/hosted/devices/${deviceId}/recording`);
  expect([current.status, current.body.recording.id]).toEqual([200, rid]);
});

test('rung 1: a unique resource_id (in its short form), the other unique attributes kept after it, coordinates last', async () => {
  const step = await tap(AT.ok);
  expect(step).toMatchObject({ seq: 1, action: 'tap', selector: { resource_id: 'ok' }, fragile: false, chosen: 0, x: AT.ok.x, y: AT.ok.y });
  expect(step.candidates).toEqual([
    { kind: 'resource_id', selector: { resource_id: 'ok' } },
    { kind: 'text', selector: { text: 'Continue' } },
    { kind: 'coordinates', selector: AT.ok },
  ]);
  expect(step.element).toMatchObject({ text: 'Continue', resource_id: `${PKG}:id/ok`, class: 'android.widget.Button' });
  expect(step.frame_url).toBe(`/api/hosted/recordings/${rid}/steps/1/frame`);
  // The tap was performed: the device shows the next screen.
  const driver = await w.t.app.modules.devices.services.host.driver(deviceId);
  expect((await driver.uiTree()).some((e) => e.text === 'Second screen')).toBe(true);
});

test('rung 2: text when the element has no id; rung 3: desc when it has only a description', async () => {
  expect((await tap(AT.hello)).selector).toEqual({ text: 'Hello' });
  const menu = await tap(AT.menu);
  expect(menu.selector).toEqual({ desc: 'Menu' });
  expect(kinds(menu)).toEqual(['desc', 'coordinates']);
});

test('rung 4: resource_id with index when two elements share id and text; the tie is broken by index in tree order', async () => {
  const first = await tap(AT.row0);
  const second = await tap(AT.row1);
  expect(first.selector).toEqual({ resource_id: 'row', index: 0 });
  expect(second.selector).toEqual({ resource_id: 'row', index: 1 });
  expect(second.candidates).toEqual([
    { kind: 'indexed', selector: { resource_id: 'row', index: 1 } },
    { kind: 'indexed', selector: { text: 'Item', index: 1 } },
    { kind: 'coordinates', selector: AT.row1 },
  ]);
});

test('rung 5: an element with no usable attribute gets an image crop of its bounds, saved to the library as a crop', async () => {
  const step = await tap(AT.blank);
  expect(kinds(step)).toEqual(['image', 'coordinates']);
  const imageId = step.selector.image_id as string;
  expect(imageId).toMatch(/^img_[0-9a-f]{16}$/);
  const image = await r.call('GET', `/api/images/${imageId}`);
  expect(image.status).toBe(200);
  expect(image.body).toMatchObject({ source: 'crop', width: 200, height: 120 });
  expect(step.fragile).toBe(false);
});

test('rung 6: a point with no element is coordinates, marked fragile', async () => {
  const step = await tap(AT.nothing);
  expect(step).toMatchObject({ selector: null, fragile: true, chosen: 0, element: null, candidates: [{ kind: 'coordinates', selector: AT.nothing }] });
});

test("a tap on a dialog's button is marked to be saved as an interrupt", async () => {
  await tap(AT.menu);
  const step = await tap(AT.later);
  expect(step).toMatchObject({ interrupt: true, selector: { resource_id: 'android:id/button2' } });
  expect((await tap(AT.hello)).interrupt).toBeUndefined();
});

test('the tap that focuses a field stays a step; text typed into it is one type step on the field', async () => {
  const focus = await tap(AT.name);
  expect(focus.selector).toEqual({ resource_id: 'name' });
  const first = await r.input(rid, { type: 'text', text: 'Ada ' });
  expect(first.status, JSON.stringify(first.body)).toBe(201);
  expect(first.body.step).toMatchObject({ seq: 2, action: 'type', text: 'Ada ', selector: { resource_id: 'name' }, fragile: false });
  const more = await r.input(rid, { type: 'text', text: 'Lovelace' });
  expect(more.body.step).toMatchObject({ seq: 2, action: 'type', text: 'Ada Lovelace' });
  const steps = (await r.get(rid)).body.steps;
  expect(steps.map((s: { action: string }) => s.action)).toEqual(['tap', 'type']);
  const driver = await w.t.app.modules.devices.services.host.driver(deviceId);
  expect((await driver.uiTree()).find((e) => e.element_id === 'name')?.text).toBe('Ada Lovelace');
});

test('a long press gets its element\'s selector and keeps its duration; saved, it is a valid long_press step', async () => {
  const answer = await r.input(rid, { type: 'long_press', ...AT.hello, ms: 1200 });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  expect(answer.body.step).toMatchObject({ action: 'long_press', selector: { text: 'Hello' }, ms: 1200, x: AT.hello.x, y: AT.hello.y, fragile: false });
  const plain = await r.input(rid, { type: 'long_press', ...AT.nothing });
  expect(plain.body.step).toMatchObject({ action: 'long_press', selector: null, fragile: true });
  const saved = await r.save(rid, { name: 'Presses', kind: 'block' });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  expect(saved.body.blocks.steps).toEqual([
    { type: 'long_press', selector: { text: 'Hello' }, ms: 1200 },
    { type: 'long_press', x: AT.nothing.x, y: AT.nothing.y },
  ]);
});

test('keys and swipes are recorded as they are', async () => {
  const key = await r.input(rid, { type: 'key', key: 'BACK' });
  expect(key.body.step).toMatchObject({ action: 'key', key: 'BACK', selector: null, candidates: [], chosen: -1, fragile: false });
  const swipe = await r.input(rid, { type: 'swipe', from: { x: 540, y: 1800 }, to: { x: 540, y: 600 }, ms: 400 });
  expect(swipe.body.step).toMatchObject({ action: 'swipe', from: { x: 540, y: 1800 }, to: { x: 540, y: 600 }, ms: 400, selector: null });
  const enter = await r.input(rid, { type: 'key', key: 'ENTER' });
  const home = await r.input(rid, { type: 'key', key: 'HOME' });
  expect([enter.status, home.status]).toEqual([201, 201]);
  const driver = await w.t.app.modules.devices.services.host.driver(deviceId);
  expect((await driver.currentApp())?.package).not.toBe(PKG);
});

test('a check adds a wait_for on the element at the point without touching the device; nothing there is 422 no_element', async () => {
  const check = await r.check(rid, AT.ok);
  expect(check.status, JSON.stringify(check.body)).toBe(201);
  expect(check.body.step).toMatchObject({ action: 'wait_for', selector: { resource_id: 'ok' }, fragile: false });
  expect(kinds(check.body.step)).toEqual(['resource_id', 'text']);
  const driver = await w.t.app.modules.devices.services.host.driver(deviceId);
  expect((await driver.uiTree()).some((e) => e.element_id === 'ok')).toBe(true);
  const none = await r.check(rid, AT.nothing);
  expect([none.status, none.body.details.code]).toEqual([422, 'no_element']);
});

test('candidates answer how many elements each names on the screen now; PATCH chooses another; DELETE removes a step', async () => {
  await tap(AT.row1);
  const listed = await r.call('GET', `/api/hosted/recordings/${rid}/steps/1/candidates`);
  expect(listed.status).toBe(200);
  expect(listed.body.items).toEqual([
    { kind: 'indexed', selector: { resource_id: 'row', index: 1 }, matches: 1 },
    { kind: 'indexed', selector: { text: 'Item', index: 1 }, matches: 1 },
    { kind: 'coordinates', selector: AT.row1, matches: 1 },
  ]);
  const ok = await tap(AT.ok);
  // The screen moved on: the button is gone, so its selectors name nothing now.
  const after = await r.call('GET', `/api/hosted/recordings/${rid}/steps/${ok.seq}/candidates`);
  expect(after.body.items.map((i: { matches: number }) => i.matches)).toEqual([0, 0, 1]);

  const chosen = await r.call('PATCH', `/api/hosted/recordings/${rid}/steps/${ok.seq}`, { chosen: 1 });
  expect(chosen.status).toBe(200);
  expect(chosen.body.step).toMatchObject({ chosen: 1, selector: { text: 'Continue' }, fragile: false });
  const coords = await r.call('PATCH', `/api/hosted/recordings/${rid}/steps/${ok.seq}`, { chosen: 2 });
  expect(coords.body.step).toMatchObject({ chosen: 2, selector: null, fragile: true });
  const tooFar = await r.call('PATCH', `/api/hosted/recordings/${rid}/steps/${ok.seq}`, { chosen: 3 });
  expect([tooFar.status, tooFar.body.details.code]).toEqual([422, 'validation_failed']);

  const deleted = await r.call('DELETE', `/api/hosted/recordings/${rid}/steps/1`);
  expect(deleted.status).toBe(204);
  expect((await r.get(rid)).body.steps.map((s: { seq: number }) => s.seq)).toEqual([ok.seq]);
  expect((await r.call('DELETE', `/api/hosted/recordings/${rid}/steps/1`)).status).toBe(404);
  // Seqs are not reused after a delete.
  expect((await tap(AT.nothing)).seq).toBe(ok.seq + 1);
});

test("a step's frame is the screen before its input, as JPEG", async () => {
  await tap(AT.hello);
  const frame = await w.t.app.inject({ url: `/api/hosted/recordings/${rid}/steps/1/frame`, headers: w.owner.auth });
  expect(frame.statusCode).toBe(200);
  expect(frame.headers['content-type']).toBe('image/jpeg');
  expect(frame.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  expect((await w.t.app.inject({ url: `/api/hosted/recordings/${rid}/steps/9/frame`, headers: w.owner.auth })).statusCode).toBe(404);
});
