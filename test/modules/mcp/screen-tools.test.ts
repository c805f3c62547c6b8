// The screen tools through the official MCP SDK client, on the real lease service, image
// library and simulated host: template_crop cuts the catalogue's mug picture into the
// library, device_find_image finds it there (≥ 0.95 at the cropped spot) and nowhere on a
// screen without it, template_list lists it, device_read_text reads the tree and, with ocr,
// the pixels of the status bar, which the tree does not hold. Someone else's image is not
// found; bad regions and a too-small crop are refused.
import { describe, expect, test } from 'vitest';
import { DEMO_APP_PACKAGE } from '../../../src/modules/devices/index.js';
import { uploadImage, patternImage } from '../../helpers/images.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { call, data, failure } from './helpers/client.js';
import { useMcpWorld } from './helpers/world.js';

const w = useMcpWorld();

type Lease = { lease_id: string };
type Match = { x: number; y: number; w: number; h: number; score: number; scale: number; center: { x: number; y: number } };
type Line = { text: string; source: string; element_id?: string; confidence?: number; bounds: { top: number; bottom: number } };
const MUG = { x: 48, y: 630, w: 168, h: 168 };

async function leasedShop() {
  const device = await createCloudDevice(w.t.app, w.owner, { name: `Eyes ${Math.random()}` });
  const client = await w.clientFor(w.owner, ['devices:control']);
  const { lease_id } = data<Lease>(await call(client, 'device_lease', { device_id: device.id }));
  expect((await call(client, 'app_open', { lease_id, package: DEMO_APP_PACKAGE })).isError).toBeFalsy();
  return { client, lease_id };
}

describe('crop, find, list', () => {
  test('a crop of the screen is found where it was cut, and not on a screen without it', async () => {
    const { client, lease_id } = await leasedShop();
    const image = data<{ id: string; width: number; height: number; source: string; content_type: string; name: string }>(
      await call(client, 'template_crop', { lease_id, ...MUG, name: 'Mug thumbnail' }),
    );
    expect(image).toMatchObject({ id: expect.stringMatching(/^img_[0-9a-f]{16}$/), width: 168, height: 168, source: 'crop', content_type: 'image/png', name: 'Mug thumbnail' });
    // The person sees it in the library, with the bytes the screen showed.
    const record = await w.t.app.inject({ method: 'GET', url: `/api/images/${image.id}`, headers: w.owner.auth });
    expect(record.json()).toMatchObject({ id: image.id, source: 'crop' });

    const { matches } = data<{ matches: Match[] }>(await call(client, 'device_find_image', { lease_id, image_id: image.id }));
    expect(matches.length).toBeGreaterThanOrEqual(1);
    const [best] = matches;
    expect(best.score).toBeGreaterThanOrEqual(0.95);
    expect(Math.abs(best.x - MUG.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(best.y - MUG.y)).toBeLessThanOrEqual(1);
    expect(best).toMatchObject({ w: 168, h: 168, center: { x: best.x + 84, y: best.y + 84 } });
    // Other thumbnails are other pictures: nothing else reaches the threshold.
    expect(matches.filter((m) => Math.abs(m.y - MUG.y) > 10)).toEqual([]);

    expect((await call(client, 'device_key', { lease_id, key: 'HOME' })).isError).toBeFalsy();
    expect(data<{ matches: Match[] }>(await call(client, 'device_find_image', { lease_id, image_id: image.id })).matches).toEqual([]);
    // Even a loose threshold finds nothing that looks like it on the launcher.
    expect(data<{ matches: Match[] }>(await call(client, 'device_find_image', { lease_id, image_id: image.id, threshold: 0.85 })).matches).toEqual([]);

    const listed = data<{ items: { id: string }[]; total: number }>(await call(client, 'template_list', { name: 'thumbnail' }));
    expect(listed.items.map((i) => i.id)).toContain(image.id);
    expect(data<{ items: unknown[]; total: number }>(await call(client, 'template_list', { name: 'no such name' }))).toEqual({ items: [], total: 0 });
  });

  test("another account's image, a missing one and bad rectangles are error results", async () => {
    const { client, lease_id } = await leasedShop();
    const theirs = await uploadImage(w.t.app, w.stranger, await patternImage(32, 32));
    expect(failure(await call(client, 'device_find_image', { lease_id, image_id: theirs.id }))).toMatchObject({ code: 'not_found' });
    expect(failure(await call(client, 'device_find_image', { lease_id, image_id: 'img_ffffffffffffffff' }))).toMatchObject({ code: 'not_found' });
    expect(data<{ items: { id: string }[] }>(await call(client, 'template_list')).items.map((i) => i.id)).not.toContain(theirs.id);
    const before = (await w.t.app.inject({ method: 'GET', url: '/api/images', headers: w.owner.auth })).json().total_rows;
    expect(failure(await call(client, 'template_crop', { lease_id, x: 1000, y: 100, w: 200, h: 100, name: 'off the edge' }))).toMatchObject({ code: 'validation_failed' });
    expect(failure(await call(client, 'template_crop', { lease_id, x: 10, y: 10, w: 4, h: 40, name: 'too thin' }))).toMatchObject({ code: 'validation_failed' });
    expect(failure(await call(client, 'template_crop', { lease_id, ...MUG, name: '' }))).toMatchObject({ code: 'validation_failed' });
    expect((await w.t.app.inject({ method: 'GET', url: '/api/images', headers: w.owner.auth })).json().total_rows).toBe(before);
    expect(failure(await call(client, 'device_find_image', { lease_id: 'lease_000000000000000000000000', image_id: theirs.id }))).toMatchObject({ code: 'not_found' });
  });

  test('without devices:control the screen tools are refused and not listed', async () => {
    const client = await w.clientFor(w.owner, ['macros:run']);
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ['template_crop', 'template_list', 'device_find_image', 'device_read_text']) expect(names).not.toContain(name);
    expect(failure(await call(client, 'template_list'))).toMatchObject({ code: 'insufficient_scope' });
  });
});

describe('reading text', () => {
  test('from the UI tree by default; with ocr from the pixels, where the tree has no text', async () => {
    const { client, lease_id } = await leasedShop();
    const tree = data<{ lines: Line[] }>(await call(client, 'device_read_text', { lease_id })).lines;
    expect(tree.map((l) => l.text)).toContain('Espresso beans');
    expect(tree.every((l) => l.source === 'tree' && l.confidence === 1 && typeof l.element_id === 'string')).toBe(true);

    // The status bar (clock, battery) is drawn but is no element of the tree.
    const statusBar = { left: 0, top: 0, right: 1080, bottom: 84 };
    expect(data<{ lines: Line[] }>(await call(client, 'device_read_text', { lease_id, region: statusBar })).lines).toEqual([]);
    // Tesseract loads at the first reading by OCR, not with the app; /healthz says which.
    const ocrEngine = async () => (await w.t.app.inject({ url: '/healthz' })).json().engines.ocr;
    expect(await ocrEngine()).toBe('idle');
    const read = data<{ lines: Line[] }>(await call(client, 'device_read_text', { lease_id, region: statusBar, ocr: true })).lines;
    expect(read.length).toBeGreaterThanOrEqual(1);
    expect(read.map((l) => l.text).join(' ')).toMatch(/\d{1,2}:\d{2}/);
    expect(read.every((l) => l.source === 'ocr' && l.confidence !== undefined && l.bounds.bottom <= 84)).toBe(true);
    expect(await ocrEngine()).toBe('ready');

    // The whole screen by OCR reads what the tree says too.
    const all = data<{ lines: Line[] }>(await call(client, 'device_read_text', { lease_id, ocr: true })).lines.map((l) => l.text).join('\n');
    expect(all).toMatch(/Espresso beans/);
    expect(failure(await call(client, 'device_read_text', { lease_id, ocr: true, region: { left: 0, top: 0, right: 5000, bottom: 10 } }))).toMatchObject({ code: 'validation_failed' });
  }, 60_000);
});
