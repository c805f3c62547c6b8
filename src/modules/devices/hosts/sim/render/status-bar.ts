// The status bar (time, signal, Wi-Fi, battery) and the gesture handle at the bottom.
import { FONT_FAMILY } from './palette.js';

export const STATUS_BAR_HEIGHT = 84;

export function statusBarSvg(time: string, battery: number, background: string | null, ink: string): string {
  const bg = background ? `<rect width="1080" height="${STATUS_BAR_HEIGHT}" fill="${background}"/>` : '';
  const signal = [0, 1, 2, 3].map((i) => `<rect x="${798 + i * 13}" y="${56 - (i + 1) * 8}" width="9" height="${(i + 1) * 8}" rx="2" fill="${ink}"/>`).join('');
  const wifi =
    `<path d="M873 30 q24 -18 48 0 l-24 28 z" fill="${ink}" opacity="0.35"/>` +
    `<path d="M881 39 q16 -11 32 0 l-16 19 z" fill="${ink}"/>`;
  const level = Math.max(0, Math.min(100, battery));
  const fill = level <= 20 ? '#E5484D' : ink;
  const batteryIcon =
    `<rect x="944" y="29" width="46" height="26" rx="6" fill="none" stroke="${ink}" stroke-width="3"/>` +
    `<rect x="991" y="36" width="5" height="12" rx="2" fill="${ink}"/>` +
    `<rect x="949" y="34" width="${Math.round((36 * level) / 100)}" height="16" rx="3" fill="${fill}"/>`;
  return (
    `${bg}<text x="48" y="56" font-family="${FONT_FAMILY}" font-size="36" font-weight="bold" fill="${ink}">${time}</text>` +
    `${signal}${wifi}${batteryIcon}` +
    `<text x="1003" y="55" font-family="${FONT_FAMILY}" font-size="27" fill="${ink}">${level}</text>`
  );
}

export function gestureHandleSvg(ink: string): string {
  return `<rect x="432" y="2359" width="216" height="14" rx="7" fill="${ink}" opacity="0.55"/>`;
}
