// The soft keyboard as Gboard draws it in its light theme: a grey tray over the bottom 900 px,
// a suggestion strip with the collapse chevron, white letter keys, darker action keys and a
// round blue enter key, from the same layout the taps use (keyboard.ts).
import { KEYBOARD_KEYS, SUGGESTION_BOTTOM } from '../keyboard.js';
import { KEYBOARD_TOP } from '../view.js';
import { escapeXml } from './text-layout.js';

const TRAY = '#E8EAED';
const KEY = '#FFFFFF';
const ACTION_KEY = '#C9CED6';
const INK = '#202124';
const ACCENT = '#1A73E8';
const GAP = 7;

function keySvg(key: (typeof KEYBOARD_KEYS)[number]): string {
  const b = key.bounds;
  const x = b.left + GAP;
  const y = b.top + GAP * 1.6;
  const w = b.right - b.left - GAP * 2;
  const h = b.bottom - b.top - GAP * 3.2;
  const cx = (b.left + b.right) / 2;
  const cy = y + h / 2;
  const enter = key.action.type === 'enter';
  const fill = enter ? ACCENT : key.modifier ? ACTION_KEY : KEY;
  const ink = enter ? '#FFFFFF' : INK;
  const size = key.label.length > 1 && key.label !== 'space' ? 38 : 56;
  const label = key.label === 'space' ? '' : escapeXml(key.label);
  return (
    `<rect x="${x}" y="${y + 3}" width="${w}" height="${h}" rx="18" fill="#000" opacity="0.10"/>` +
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="18" fill="${fill}"/>` +
    (label ? `<text x="${cx}" y="${Math.round(cy + size * 0.36)}" font-size="${size}" text-anchor="middle" fill="${ink}">${label}</text>` : '')
  );
}

export function keyboardSvg(): string {
  const strip =
    `<rect x="0" y="${KEYBOARD_TOP}" width="1080" height="2400" fill="${TRAY}"/>` +
    // The collapse chevron and the strip's tool icons, as on Gboard.
    `<path d="M60 ${KEYBOARD_TOP + 52} l22 22 l22 -22" fill="none" stroke="#5F6368" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>` +
    `<rect x="180" y="${KEYBOARD_TOP + 38}" width="56" height="44" rx="8" fill="none" stroke="#5F6368" stroke-width="6"/>` +
    `<circle cx="330" cy="${KEYBOARD_TOP + 60}" r="24" fill="none" stroke="#5F6368" stroke-width="6"/>` +
    `<rect x="1000" y="${KEYBOARD_TOP + 36}" width="22" height="36" rx="11" fill="#5F6368"/><path d="M990 ${KEYBOARD_TOP + 66} q21 26 42 0 M1011 ${KEYBOARD_TOP + 86} v10" fill="none" stroke="#5F6368" stroke-width="5"/>` +
    `<rect x="0" y="${SUGGESTION_BOTTOM - 2}" width="1080" height="2" fill="#D2D5DA"/>`;
  return strip + KEYBOARD_KEYS.map(keySvg).join('');
}
