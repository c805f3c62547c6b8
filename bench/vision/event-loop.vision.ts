// Matching off the event loop (issue 34 point 7, decision 0025): the p99 of a plain route on
// a Fastify server while 8 clients match templates continuously in the same process, with the
// search on the matching pool against the baseline measured in the same run, the same search
// on the server's own thread (as before the pool). Beside it, one match's own p50 (one client,
// nothing else going), pool against this thread: the copy to a pool thread must cost little.
// Goals (printed, not asserted): route p99 < 50 ms with the pool; match p50 within +10 %.
// Run: npx vitest run --config bench/vision/vitest.config.ts bench/vision/event-loop.vision.ts
// (BENCH_SECONDS, default 10 per phase; the pool's threads: VISION_THREADS's default).
import { loadavg } from 'node:os';
import Fastify from 'fastify';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { decodeGray, type GrayImage, MatchPool, type TemplateMatcher } from '../../src/modules/vision/index.js';
import { matchOptions } from '../../src/modules/vision/find-template.js';
import { defaultVisionThreads } from '../../src/modules/vision/match-pool.js';
import { loadOpenCv } from '../../src/modules/vision/opencv.js';
import { matchTemplateGray } from '../../src/modules/vision/template-match.js';
import { fixtureScreen } from '../../test/helpers/vision-fixtures.js';
import { measure, report } from '../latency/measure.js';

const load = () => loadavg().map((v) => v.toFixed(2)).join(' ');
const CLIENTS = 8;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

/** The route's latencies while `clients` loops call `matcher` until the phase ends. */
async function routeUnderMatching(url: string, matcher: TemplateMatcher, screen: GrayImage, template: GrayImage): Promise<{ p50: number; p99: number; matches: number }> {
  const options = matchOptions();
  const until = performance.now() + seconds * 1000;
  let matches = 0;
  const clients = Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < until) {
      const [best] = await matcher.match(screen, template, options);
      expect(best).toMatchObject({ x: 72, y: 426 });
      matches++;
    }
  });
  const samples: number[] = [];
  while (performance.now() < until) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    samples.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(clients);
  samples.sort((a, b) => a - b);
  const at = (q: number) => Number(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))].toFixed(1));
  return { p50: at(0.5), p99: at(0.99), matches };
}

test('a plain route while 8 clients match: the pool against this thread', async () => {
  const app = Fastify();
  app.get('/api/ping', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/ping`;
  const shot = await fixtureScreen('catalog');
  const template = await decodeGray(await sharp(shot.png).extract({ left: 72, top: 426, width: 120, height: 120 }).png().toBuffer(), 'template');
  const cv = await loadOpenCv();
  const here: TemplateMatcher = { match: async (s, t, o) => matchTemplateGray(cv, s, t, o) };
  const pool = new MatchPool(defaultVisionThreads());
  try {
    await pool.warm();
    process.stdout.write(`\npool threads ${pool.threads}, load before ${load()}\n`);
    const options = matchOptions();
    const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
    const single = {
      'one match, this thread': await measure(rounds, () => here.match(shot.gray, template, options)),
      'one match, pool': await measure(rounds, () => pool.match(shot.gray, template, options)),
    };
    const baseline = await routeUnderMatching(url, here, shot.gray, template);
    const pooled = await routeUnderMatching(url, pool, shot.gray, template);
    report(`Plain route while ${CLIENTS} clients match (${seconds} s a phase; load after ${load()})`, {
      ...single,
      [`route, matches on this thread (${baseline.matches})`]: baseline,
      [`route, matches on the pool (${pooled.matches})`]: pooled,
    });
    const p50 = single['one match, pool'].p50 / single['one match, this thread'].p50;
    process.stdout.write(`  route p99 pool / this thread         ${(pooled.p99 / baseline.p99).toFixed(2)}   goal: pool p99 < 50 ms (${pooled.p99} ms)\n`);
    process.stdout.write(`  match p50 pool / this thread         ${p50.toFixed(2)}   goal: ≤ 1.10\n`);
  } finally {
    await pool.close();
    await app.close();
  }
});
