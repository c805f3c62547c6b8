// OpenCV's WebAssembly heap is not garbage collected and never shrinks: a Mat not deleted is
// lost for the life of the process. Every Mat a match makes is counted here (the constructor
// and `roi` wrapped, `delete` counted), and over many matches — found, not found, refused —
// the heap must not grow.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_PACKAGE, renderSimScreen } from '../../../src/modules/devices/index.js';
import { decodeGray, findTemplate, type GrayImage, type TemplateMatcher } from '../../../src/modules/vision/index.js';
import { matchTemplateGray } from '../../../src/modules/vision/template-match.js';
import { type CvMat, loadOpenCv, type OpenCv } from '../../../src/modules/vision/opencv.js';

let cv: OpenCv;
let screen: GrayImage;
let template: Buffer;
const counts = { made: 0, deleted: 0 };
const restore: (() => void)[] = [];

beforeAll(async () => {
  cv = await loadOpenCv();
  const shot = await renderSimScreen({ package: DEMO_APP_PACKAGE, stack: ['catalog'] }, { maxEdge: 1200 });
  screen = await decodeGray(shot.data, 'screen');
  template = await sharp(shot.data).extract({ left: 30, top: 200, width: 60, height: 60 }).png().toBuffer();
  // Count every Mat made and deleted from here on.
  const proto = (cv.Mat as unknown as { prototype: CvMat }).prototype;
  const { roi, delete: del } = proto;
  const Original = cv.Mat;
  const Counting = function (this: unknown, ...args: []) {
    counts.made++;
    return new Original(...args);
  } as unknown as OpenCv['Mat'];
  cv.Mat = Counting;
  proto.roi = function (this: CvMat, rect) {
    counts.made++;
    return roi.call(this, rect);
  };
  proto.delete = function (this: CvMat) {
    counts.deleted++;
    return del.call(this);
  };
  restore.push(() => {
    cv.Mat = Original;
    proto.roi = roi;
    proto.delete = del;
  });
});
afterAll(() => restore.forEach((undo) => undo()));

describe('memory of the OpenCV heap', () => {
  it('deletes every Mat it makes, and the heap stays flat over many matches', async () => {
    const flatTemplate: GrayImage = { width: 20, height: 20, data: new Uint8Array(400).fill(9) };
    // On this thread, where the counting OpenCV is (the pool's threads each load their own).
    const matcher: TemplateMatcher = { match: async (s, t, o, trace) => matchTemplateGray(cv, s, t, o, trace) };
    const once = async () => {
      await findTemplate(screen, template, { matcher });
      await findTemplate(screen, template, { scales: { min: 1, max: 1 }, threshold: 0.99, matcher });
      await findTemplate({ width: 40, height: 40, data: new Uint8Array(1600) }, template, { matcher });
      await expect(findTemplate(screen, flatTemplate, { matcher })).rejects.toMatchObject({ code: 'template_unusable' });
    };
    await once();
    expect(counts.made).toBeGreaterThan(0);
    expect(counts.deleted).toBe(counts.made);
    const heapBefore = cv.HEAPU8.buffer.byteLength;
    for (let i = 0; i < 12; i++) await once();
    expect(counts.deleted).toBe(counts.made);
    expect(cv.HEAPU8.buffer.byteLength).toBe(heapBefore);
  }, 120_000);
});
