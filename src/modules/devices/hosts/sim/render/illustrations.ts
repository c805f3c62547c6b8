// Simple drawings for pictures whose description names a known subject (coffee beans, a
// mug, a kettle, paper filters), in a 100×100 box; anything else gets its initial.
type Drawing = string;

const BEANS: Drawing = [
  [38, 46, -28],
  [62, 40, 24],
  [50, 64, -8],
]
  .map(
    ([x, y, r]) =>
      `<g transform="translate(${x} ${y}) rotate(${r})"><ellipse rx="13" ry="18" fill="#5B3A1E"/><path d="M0 -16 C -6 -6 6 6 0 16" stroke="#C58B52" stroke-width="2.4" fill="none"/></g>`,
  )
  .join('');

const MUG: Drawing =
  '<path d="M40 18 q-5 6 0 12 q5 6 0 12" stroke="#FFFFFF" stroke-width="2.5" fill="none" opacity="0.8"/>' +
  '<path d="M54 16 q-5 6 0 12 q5 6 0 12" stroke="#FFFFFF" stroke-width="2.5" fill="none" opacity="0.8"/>' +
  '<circle cx="72" cy="63" r="11" fill="none" stroke="#244E78" stroke-width="6"/>' +
  '<rect x="26" y="44" width="48" height="40" rx="8" fill="#2F5F8F"/>' +
  '<rect x="26" y="44" width="48" height="8" rx="4" fill="#4A7DB0"/>';

const KETTLE: Drawing =
  '<path d="M30 42 q20 -18 40 0" stroke="#3D4650" stroke-width="6" fill="none" stroke-linecap="round"/>' +
  '<path d="M30 48 L70 48 L78 84 L22 84 Z" fill="#A7B1BB"/>' +
  '<path d="M74 70 Q90 64 92 44" stroke="#A7B1BB" stroke-width="5" fill="none" stroke-linecap="round"/>' +
  '<rect x="44" y="38" width="12" height="6" rx="3" fill="#3D4650"/>' +
  '<rect x="30" y="56" width="40" height="5" fill="#FFFFFF" opacity="0.35"/>';

const FILTERS: Drawing =
  '<path d="M22 28 L78 28 L58 80 L42 80 Z" fill="#F4E6CC" stroke="#D8C39C" stroke-width="2"/>' +
  '<path d="M36 30 L46 78 M50 30 L50 78 M64 30 L54 78" stroke="#D8C39C" stroke-width="2"/>';

const SUBJECTS: [RegExp, Drawing][] = [
  [/bean|coffee/i, BEANS],
  [/mug|cup/i, MUG],
  [/kettle/i, KETTLE],
  [/filter/i, FILTERS],
];

/** The drawing for a description, or undefined when no subject matches. */
export function illustrationFor(description: string): Drawing | undefined {
  return SUBJECTS.find(([pattern]) => pattern.test(description))?.[1];
}

/** Places a 100×100 drawing centred in a box, `fill` (0..1) of its shorter side. */
export function placeIllustration(drawing: Drawing, cx: number, cy: number, side: number, fill: number): string {
  const scale = (side * fill) / 100;
  return `<g transform="translate(${cx - 50 * scale} ${cy - 50 * scale}) scale(${scale})">${drawing}</g>`;
}
