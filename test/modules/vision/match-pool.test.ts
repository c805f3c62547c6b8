// Matching off the caller's thread (issue 34 point 7, decision 0025): the pool answers what
// the same search on this thread answers, typed errors included, through the runs thread's
// relay too; and while a pool thread matches, this thread's event loop keeps turning.
import { MessageChannel } from 'node:worker_threads';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGray, emptyTrace, findTemplate, type GrayImage, MatchPool, PortMatcher, serveMatches, TemplateUnusableError } from '../../../src/modules/vision/index.js';
import { matchOptions } from '../../../src/modules/vision/find-template.js';
import { loadOpenCv } from '../../../src/modules/vision/opencv.js';
import { matchTemplateGray } from '../../../src/modules/vision/template-match.js';
import { fixtureScreen, type FixtureScreen } from '../../helpers/vision-fixtures.js';

let screen: FixtureScreen;
let templates: GrayImage[];
const pool = new MatchPool(2);

beforeAll(async () => {
  screen = await fixtureScreen('product_beans');
  const arrow = await sharp(screen.png).extract({ left: 24, top: 108, width: 120, height: 120 }).png().toBuffer();
  templates = await Promise.all([1, 2, 0.5].map(async (f) => decodeGray(await sharp(arrow).resize(120 * f, 120 * f).png().toBuffer(), 'template')));
});
afterAll(() => pool.close());

/** How many turns this thread's event loop makes while `work` is pending (a chain of setImmediate). */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const spin = () => {
    if (done) return;
    turns++;
    setImmediate(spin);
  };
  const pending = work();
  setImmediate(spin);
  try {
    await pending;
  } finally {
    done = true;
  }
  return turns;
}

describe('the matching pool', () => {
  it('answers exactly what the search answers on this thread, and fills the trace', async () => {
    const cv = await loadOpenCv();
    for (const options of [matchOptions({ threshold: 0.7 })]) {
      for (const template of templates) {
        const here = matchTemplateGray(cv, screen.gray, template, options);
        const trace = emptyTrace();
        expect(await pool.match(screen.gray, template, options, trace)).toEqual(here);
        expect(trace.coarseScales).toBeGreaterThan(0);
      }
    }
    expect(pool.state).toBe('ready');
  }, 180_000);

  it('keeps the typed errors: a flat template is 422 template_unusable, not a 500', async () => {
    const flat: GrayImage = { width: 40, height: 40, data: new Uint8Array(1600).fill(200) };
    await expect(pool.match(screen.gray, flat, matchOptions())).rejects.toBeInstanceOf(TemplateUnusableError);
    await expect(findTemplate(screen.gray, flat, { matcher: pool })).rejects.toMatchObject({ status: 422, code: 'template_unusable' });
  });

  it("relays a thread's matches through a port to the pool that owns them, answers and errors alike", async () => {
    const { port1, port2 } = new MessageChannel();
    serveMatches(port1, pool);
    const relayed = new PortMatcher(port2);
    try {
      const [direct, viaPort] = await Promise.all([pool.match(screen.gray, templates[1], matchOptions()), relayed.match(screen.gray, templates[1], matchOptions())]);
      expect(viaPort).toEqual(direct);
      expect(viaPort[0]).toMatchObject({ x: 24, y: 108, scale: 0.5 });
      const flat: GrayImage = { width: 40, height: 40, data: new Uint8Array(1600).fill(9) };
      await expect(relayed.match(screen.gray, flat, matchOptions())).rejects.toMatchObject({ code: 'template_unusable' });
    } finally {
      port1.close();
    }
  }, 120_000);

  it("leaves the caller's event loop free during a match (and the same search on this thread does not)", async () => {
    const options = matchOptions({ threshold: 0.7 });
    await pool.match(screen.gray, templates[1], options); // threads started, OpenCV loaded
    // Not a timing: the loop must turn at all while the pool works. On this thread the
    // synchronous search runs within one turn, so not one immediate runs before it ends.
    expect(await turnsDuring(() => pool.match(screen.gray, templates[1], options))).toBeGreaterThan(0);
    const cv = await loadOpenCv();
    expect(await turnsDuring(async () => matchTemplateGray(cv, screen.gray, templates[1], options))).toBe(0);
  }, 120_000);
});
