// Small glyphs drawn in a 24×24 box and scaled into place: the toolbar's back arrow and
// action icons, the avatar, the check mark. The arrow's path is Material Design's
// `arrow_back` (Apache 2.0); the others are built from circles and lines.
export type IconName = 'back' | 'settings' | 'person' | 'search' | 'check' | 'letter';

export function iconForDescription(description: string): IconName {
  const d = description.toLowerCase();
  if (d.includes('navigate up') || d === 'back') return 'back';
  if (d.includes('setting')) return 'settings';
  if (d.includes('account') || d.includes('profile')) return 'person';
  if (d.includes('search')) return 'search';
  if (d.includes('confirm') || d.includes('done')) return 'check';
  return 'letter';
}

function gear(color: string, hole: string): string {
  const teeth = Array.from({ length: 8 }, (_, i) => `<rect x="10.4" y="1.6" width="3.2" height="5" rx="0.9" fill="${color}" transform="rotate(${i * 45} 12 12)"/>`).join('');
  return `${teeth}<circle cx="12" cy="12" r="7.4" fill="${color}"/><circle cx="12" cy="12" r="3" fill="${hole}"/>`;
}

/** The glyph, centred in a square of `size` px whose top-left is (x, y). */
export function iconSvg(name: IconName, x: number, y: number, size: number, color: string, background: string, letter = ''): string {
  const s = size / 24;
  let body: string;
  switch (name) {
    case 'back':
      body = `<path d="M20 11H7.83l5.59-5.59L12 4l-8 8 8 8 1.41-1.41L7.83 13H20v-2z" fill="${color}"/>`;
      break;
    case 'settings':
      body = gear(color, background);
      break;
    case 'person':
      body = `<circle cx="12" cy="8" r="4.2" fill="${color}"/><path d="M3.5 21c0-4.4 3.8-7 8.5-7s8.5 2.6 8.5 7z" fill="${color}"/>`;
      break;
    case 'search':
      body = `<circle cx="10" cy="10" r="6" fill="none" stroke="${color}" stroke-width="2.4"/><line x1="14.6" y1="14.6" x2="20.5" y2="20.5" stroke="${color}" stroke-width="2.8" stroke-linecap="round"/>`;
      break;
    case 'check':
      body = `<polyline points="6,12.5 10.3,16.8 18.5,8.2" fill="none" stroke="${color}" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>`;
      break;
    default:
      body = `<text x="12" y="16.6" font-size="13" font-weight="bold" text-anchor="middle" fill="${color}">${letter}</text>`;
  }
  return `<g transform="translate(${x} ${y}) scale(${s})">${body}</g>`;
}
