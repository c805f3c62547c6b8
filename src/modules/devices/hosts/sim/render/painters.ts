// Draws one element as SVG, in the style its kind calls for (element-kind.ts). Geometry is
// always the element's own bounds, so the picture and the tap targets line up exactly.
import type { ViewElement } from '../view.js';
import type { ElementKind } from './element-kind.js';
import { iconForDescription, iconSvg } from './icons.js';
import { illustrationFor, placeIllustration } from './illustrations.js';
import { appColor, type AppTheme, tileColors } from './palette.js';
import { ellipsize, escapeXml, textWidth, wrapLines } from './text-layout.js';

export interface PaintContext {
  theme: AppTheme;
  /** Drawn on the primary colour (toolbar), on the wallpaper (launcher) or on a surface. */
  ground: 'primary' | 'wallpaper' | 'surface';
  inDialog: boolean;
}

function box(e: ViewElement) {
  const { left, top, right, bottom } = e.bounds;
  return { x: left, y: top, w: right - left, h: bottom - top, cx: (left + right) / 2, cy: (top + bottom) / 2 };
}

function textLine(x: number, baseline: number, text: string, size: number, color: string, options: { bold?: boolean; anchor?: 'start' | 'middle'; opacity?: number } = {}): string {
  const weight = options.bold ? ' font-weight="bold"' : '';
  const anchor = options.anchor === 'middle' ? ' text-anchor="middle"' : '';
  const opacity = options.opacity !== undefined ? ` opacity="${options.opacity}"` : '';
  return `<text x="${x}" y="${Math.round(baseline)}" font-size="${size}"${weight}${anchor}${opacity} fill="${color}">${escapeXml(text)}</text>`;
}

function paintText(e: ViewElement, ctx: PaintContext): string {
  const b = box(e);
  const { theme } = ctx;
  const onColor = ctx.ground === 'primary' ? theme.onPrimary : ctx.ground === 'wallpaper' ? '#FFFFFF' : undefined;
  if (ctx.ground === 'primary') return textLine(b.x, b.cy + 19, ellipsize(e.text, 54, b.w, true), 54, theme.onPrimary, { bold: true });
  if (e.element_id.startsWith('section')) return textLine(b.x, b.cy + 12, ellipsize(e.text, 34, b.w, true), 34, theme.primary, { bold: true });
  if (b.h <= 64) return textLine(b.x, b.cy + 12, ellipsize(e.text, 34, b.w), 34, onColor ?? theme.textMuted);
  if (b.h <= 90) return textLine(b.x, b.cy + 15, ellipsize(e.text, 44, b.w, e.clickable), 44, onColor ?? (e.clickable ? theme.primary : theme.text), { bold: e.clickable });
  if (b.h <= 130) return textLine(b.x, b.cy + 20, ellipsize(e.text, 58, b.w, true), 58, onColor ?? theme.text, { bold: true });
  const size = 42;
  const lineHeight = 60;
  const lines = wrapLines(e.text, size, b.w, Math.max(1, Math.floor(b.h / lineHeight)));
  return lines.map((line, i) => textLine(b.x, b.y + 44 + i * lineHeight, line, size, onColor ?? theme.textMuted)).join('');
}

function paintButton(e: ViewElement, ctx: PaintContext): string {
  const b = box(e);
  const { theme } = ctx;
  if (ctx.inDialog) return textLine(b.cx, b.cy + 15, ellipsize(e.text, 42, b.w, true), 42, theme.primary, { bold: true, anchor: 'middle' });
  const radius = Math.min(b.h / 2, 72);
  return (
    `<rect x="${b.x}" y="${b.y + 4}" width="${b.w}" height="${b.h}" rx="${radius}" fill="#000" opacity="0.12"/>` +
    `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="${radius}" fill="${theme.primary}"/>` +
    textLine(b.cx, b.cy + 16, ellipsize(e.text, 46, b.w - 48, true), 46, theme.onPrimary, { bold: true, anchor: 'middle' })
  );
}

function paintField(e: ViewElement, ctx: PaintContext): string {
  const b = box(e);
  const { theme } = ctx;
  const stroke = e.focused ? theme.primary : theme.outline;
  const width = e.focused ? 5 : 2.5;
  let out = `<rect x="${b.x + 2}" y="${b.y + 20}" width="${b.w - 4}" height="${b.h - 24}" rx="16" fill="${theme.surface}" stroke="${stroke}" stroke-width="${width}"/>`;
  const shown = e.password ? '•'.repeat([...e.text].length) : e.text;
  const baseline = b.y + 20 + (b.h - 24) / 2 + 15;
  if (shown === '' && !e.focused) return out + textLine(b.x + 40, baseline, ellipsize(e.hint, 44, b.w - 80), 44, theme.textMuted);
  // The label floats on the outline once the field is focused or filled, as in Material.
  const label = ellipsize(e.hint, 32, b.w - 120);
  const labelWidth = Math.min(b.w - 80, label.length * 19 + 24);
  out += `<rect x="${b.x + 28}" y="${b.y + 4}" width="${labelWidth}" height="36" fill="${ctx.inDialog ? theme.surface : theme.background}"/>`;
  out += textLine(b.x + 40, b.y + 33, label, 32, e.focused ? theme.primary : theme.textMuted);
  const visible = shown.length > 0 ? ellipsizeStart(shown, b.w - 110) : '';
  out += textLine(b.x + 40, baseline, visible, 44, theme.text);
  if (e.focused) {
    const caretX = b.x + 40 + textWidth(visible, 44) + 4;
    out += `<rect x="${Math.round(caretX)}" y="${Math.round(baseline - 40)}" width="4" height="52" fill="${theme.primary}"/>`;
  }
  return out;
}

/** Long field contents show their end (where the caret is), as a text field scrolls. */
function ellipsizeStart(text: string, width: number): string {
  if (textWidth(text, 44) <= width) return text;
  const chars = Array.from(text);
  while (chars.length > 0 && textWidth(`…${chars.join('')}`, 44) > width) chars.shift();
  return `…${chars.join('')}`;
}

function paintToggle(e: ViewElement, ctx: PaintContext): string {
  const b = box(e);
  const { theme } = ctx;
  const tw = 130;
  const th = 76;
  const tx = b.x + b.w - tw - 8;
  const ty = b.cy - th / 2;
  if (/CheckBox$/.test(e.class)) {
    const s = 64;
    const x = b.cx - s / 2;
    const y = b.cy - s / 2;
    return e.checked
      ? `<rect x="${x}" y="${y}" width="${s}" height="${s}" rx="10" fill="${theme.primary}"/>${iconSvg('check', x + 4, y + 4, s - 8, theme.onPrimary, theme.primary)}`
      : `<rect x="${x + 2}" y="${y + 2}" width="${s - 4}" height="${s - 4}" rx="10" fill="none" stroke="${theme.outline}" stroke-width="5"/>`;
  }
  return e.checked
    ? `<rect x="${tx}" y="${ty}" width="${tw}" height="${th}" rx="${th / 2}" fill="${theme.primary}"/><circle cx="${tx + tw - th / 2}" cy="${b.cy}" r="28" fill="${theme.onPrimary}"/>`
    : `<rect x="${tx + 2}" y="${ty + 2}" width="${tw - 4}" height="${th - 4}" rx="${th / 2 - 2}" fill="${theme.divider}" stroke="${theme.outline}" stroke-width="4"/><circle cx="${tx + th / 2}" cy="${b.cy}" r="19" fill="${theme.outline}"/>`;
}

function paintImage(e: ViewElement, ctx: PaintContext): string {
  const b = box(e);
  const { theme } = ctx;
  const icon = iconForDescription(e.content_desc);
  const round = icon === 'person' || icon === 'check' || b.w <= 140;
  if (round) {
    const r = Math.min(b.w, b.h) / 2;
    const fill = icon === 'check' ? '#2E7D32' : icon === 'person' ? theme.container : theme.primary;
    const ink = icon === 'person' ? theme.primary : '#FFFFFF';
    const letter = escapeXml((e.content_desc.trim()[0] ?? '?').toUpperCase());
    return `<circle cx="${b.cx}" cy="${b.cy}" r="${r}" fill="${fill}"/>${iconSvg(icon, b.cx - r * 0.62, b.cy - r * 0.62, r * 1.24, ink, fill, letter)}`;
  }
  // A picture: a soft two-tone tile with the subject's initial, the look of a product photo placeholder.
  const [light, deep] = tileColors(e.content_desc || e.element_id);
  const id = `g${Math.abs(b.x * 7 + b.y * 13 + b.w)}`;
  const initial = escapeXml((e.content_desc.replace(/^Photo of (the )?/i, '').trim()[0] ?? '?').toUpperCase());
  const size = Math.round(Math.min(b.w, b.h) * 0.42);
  const drawing = illustrationFor(e.content_desc);
  return (
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${deep}"/></linearGradient></defs>` +
    `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="${Math.min(32, b.w / 6)}" fill="url(#${id})"/>` +
    `<circle cx="${b.cx}" cy="${b.cy}" r="${size * 0.9}" fill="#FFFFFF" opacity="0.35"/>` +
    (drawing
      ? placeIllustration(drawing, b.cx, b.cy, Math.min(b.w, b.h), 0.8)
      : textLine(b.cx, b.cy + size * 0.36, initial, size, '#FFFFFF', { bold: true, anchor: 'middle', opacity: 0.95 }))
  );
}

function paintIconButton(e: ViewElement, ctx: PaintContext): string {
  const b = box(e);
  const onPrimary = ctx.ground === 'primary';
  const color = onPrimary ? ctx.theme.onPrimary : ctx.theme.text;
  const background = onPrimary ? ctx.theme.primary : ctx.theme.background;
  const size = Math.min(b.w, b.h) * 0.5;
  const letter = escapeXml((e.content_desc.trim()[0] ?? '?').toUpperCase());
  return iconSvg(iconForDescription(e.content_desc), b.cx - size / 2, b.cy - size / 2, size, color, background, letter);
}

function paintLauncherIcon(e: ViewElement, pkg: string): string {
  const b = box(e);
  const r = 78;
  const cy = b.y + 24 + r;
  const color = appColor(pkg);
  const letter = escapeXml((e.text.trim()[0] ?? '?').toUpperCase());
  return (
    `<circle cx="${b.cx}" cy="${cy + 5}" r="${r}" fill="#000" opacity="0.18"/>` +
    `<circle cx="${b.cx}" cy="${cy}" r="${r}" fill="${color}"/>` +
    textLine(b.cx, cy + 27, letter, 76, '#FFFFFF', { bold: true, anchor: 'middle' }) +
    textLine(b.cx, b.y + 24 + 2 * r + 62, ellipsize(e.text, 36, b.w - 24), 36, '#FFFFFF', { anchor: 'middle' })
  );
}

export function paintElement(kind: ElementKind, e: ViewElement, ctx: PaintContext): string {
  const b = box(e);
  switch (kind) {
    case 'clock':
      return textLine(b.cx, e.bounds.bottom - 40, e.text, 210, '#FFFFFF', { anchor: 'middle' });
    case 'date':
      return textLine(b.cx, b.cy + 15, e.text, 44, '#FFFFFF', { anchor: 'middle', opacity: 0.9 });
    case 'launcherIcon':
      return paintLauncherIcon(e, e.to?.replace(/^package:/, '') ?? e.text);
    case 'searchBar':
      return `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="${b.h / 2}" fill="#FFFFFF" opacity="0.92"/>${iconSvg('search', b.x + 44, b.cy - 30, 60, '#5F6368', '#FFFFFF')}${textLine(b.x + 130, b.cy + 15, e.text, 44, '#5F6368')}`;
    case 'field':
      return paintField(e, ctx);
    case 'toggle':
      return paintToggle(e, ctx);
    case 'button':
      return paintButton(e, ctx);
    case 'iconButton':
      return paintIconButton(e, ctx);
    case 'image':
      return paintImage(e, ctx);
    case 'toolbar':
      return `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" fill="${ctx.theme.primary}"/>`;
    case 'text':
      return paintText(e, ctx);
    case 'row':
      return `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" fill="${ctx.theme.surface}"/><rect x="${b.x + 48}" y="${b.y + b.h - 2}" width="${b.w - 96}" height="2" fill="${ctx.theme.divider}"/>`;
    case 'spinner':
      return paintSpinner(e, ctx);
    case 'panel':
      return ctx.inDialog
        ? `<rect x="${b.x}" y="${b.y + 8}" width="${b.w}" height="${b.h}" rx="40" fill="#000" opacity="0.2"/><rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="40" fill="${ctx.theme.surface}"/>`
        : '';
    default:
      return '';
  }
}

/** Material's indeterminate circular progress indicator: a three-quarter arc, turned by `spin` twelfths. */
export function paintSpinner(e: ViewElement, ctx: PaintContext): string {
  const b = box(e);
  const r = Math.min(b.w, b.h) / 2 - 10;
  const angle = ((e.spin ?? 0) * 30) % 360;
  const start = { x: b.cx + r, y: b.cy };
  const end = { x: b.cx + r * Math.cos((3 * Math.PI) / 2), y: b.cy + r * Math.sin((3 * Math.PI) / 2) };
  return (
    `<circle cx="${b.cx}" cy="${b.cy}" r="${r}" fill="none" stroke="${ctx.theme.container}" stroke-width="14"/>` +
    `<path transform="rotate(${angle} ${b.cx} ${b.cy})" d="M${start.x} ${start.y} A${r} ${r} 0 1 1 ${end.x.toFixed(1)} ${end.y.toFixed(1)}" fill="none" stroke="${ctx.theme.primary}" stroke-width="14" stroke-linecap="round"/>`
  );
}
