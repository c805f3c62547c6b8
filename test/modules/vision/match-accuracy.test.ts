// The matching fixture set generated from the simulated device (test/helpers/vision-fixtures.ts):
// crops of icons, buttons, pictures and text at 0.5×–2×, and screens where they are absent.
// `npm test` runs a fixed subset that stays fast; `npm run bench:vision` runs all of it and
// prints the hit rate (results in docs/PERFORMANCE.md). The set's size is checked here too.
import { describe, expect, it } from 'vitest';
import { findTemplate } from '../../../src/modules/vision/index.js';
import { CROPS, cropBox, cropPng, fixtureScreen, judge, type MatchCase, matchCases } from '../../helpers/vision-fixtures.js';

const all = matchCases();
/** Chosen to cover every kind and density while keeping to templates the coarse pass can shrink (the quick ones). */
const SUBSET: [string, number][] = [
  ['beans thumbnail', 0.5],
  ['beans thumbnail', 2],
  ['kettle thumbnail', 0.75],
  ['Checkout button', 0.75],
  ['Place order button', 1.5],
  ['"Espresso beans" text', 1],
  ['"Delivery" text', 2],
  ['settings gear', 1.5],
  ['Corner Shop launcher icon', 1],
];

async function run(matchCase: MatchCase) {
  const screen = await fixtureScreen(matchCase.screen);
  const spec = CROPS[matchCase.crop];
  const matches = await findTemplate(screen.gray, await cropPng(spec, matchCase.factor));
  return judge(matchCase, matches, matchCase.kind === 'present' ? await cropBox(spec) : undefined);
}

describe('the matching fixture set', () => {
  it('holds at least 100 cases: every crop at 0.5×, 0.75×, 1×, 1.5× and 2×, and absent pairings', () => {
    expect(all.length).toBeGreaterThanOrEqual(100);
    expect(all.filter((c) => c.kind === 'absent').length).toBeGreaterThanOrEqual(40);
    expect(new Set(all.map((c) => c.factor))).toEqual(new Set([0.5, 0.75, 1, 1.5, 2]));
    expect(new Set(Object.values(CROPS).map((c) => c.kind))).toEqual(new Set(['icon', 'button', 'picture', 'text']));
  });

  it('finds each crop of the subset within 4 px of where it was cut, at the density it was drawn for', async () => {
    const cases = SUBSET.map(([crop, factor]) => all.find((c) => c.kind === 'present' && c.crop === crop && c.factor === factor)!);
    for (const c of cases) {
      const result = await run(c);
      expect(result.hit, `${c.crop} at ${c.factor}×: best ${JSON.stringify(result.best)}, expected ${JSON.stringify(result.expected)}`).toBe(true);
      expect(result.best!.scale).toBeCloseTo(1 / c.factor, 1);
    }
  }, 60_000);

  it('finds nothing above the threshold where a look-alike stands (another button, another line of the same font)', async () => {
    const picks = ['Checkout button', 'beans thumbnail', '"Espresso beans" text', 'Corner Shop launcher icon'].map((crop) => all.find((c) => c.kind === 'absent' && c.crop === crop)!);
    for (const c of picks) {
      const result = await run(c);
      expect(result.best, `${c.crop} on ${c.screen} at ${c.factor}×`).toBeUndefined();
    }
  }, 60_000);
});
