// The whole screen as SVG layers, in drawing order: background, the elements (each drawn by
// its kind), a dimmed screen beneath a dialog, the status bar and the gesture handle. Each
// layer knows the rows it can paint, so a horizontal band of the screen can be drawn from
// only the layers that reach it (raster.ts caches bands).
import { SIM_SCREEN } from '../app-schema.js';
import { LAUNCHER_PACKAGE } from '../state.js';
import { KEYBOARD_TOP, type SimView, type ViewElement } from '../view.js';
import { keyboardSvg } from './keyboard-svg.js';
import { kindOf } from './element-kind.js';
import { type PaintContext, paintElement } from './painters.js';
import { FONT_FAMILY, themeFor } from './palette.js';
import { gestureHandleSvg, STATUS_BAR_HEIGHT, statusBarSvg } from './status-bar.js';

export interface Layer {
  /** Rows it may paint (bounds plus a margin for shadows and glyph overhang). */
  top: number;
  bottom: number;
  svg: string;
}

const MARGIN = 16;
const FULL = { top: 0, bottom: SIM_SCREEN.height };

const WALLPAPER =
  '<defs><linearGradient id="wallpaper" x1="0" y1="0" x2="0.6" y2="1"><stop offset="0" stop-color="#1B2A4A"/><stop offset="0.55" stop-color="#3B3F8C"/><stop offset="1" stop-color="#7A4E8F"/></linearGradient></defs>' +
  '<rect width="1080" height="2400" fill="url(#wallpaper)"/>' +
  '<circle cx="900" cy="700" r="420" fill="#FFFFFF" opacity="0.05"/><circle cx="120" cy="1700" r="520" fill="#FFFFFF" opacity="0.04"/>';

/** The dimming drawn over the screen beneath a dialog. */
export const SCRIM = '<rect width="1080" height="2400" fill="#000000" opacity="0.42"/>';

function inside(inner: ViewElement, outer: ViewElement): boolean {
  const a = inner.bounds;
  const b = outer.bounds;
  return a.left >= b.left && a.top >= b.top && a.right <= b.right && a.bottom <= b.bottom;
}

function elementLayers(elements: ViewElement[], base: Omit<PaintContext, 'ground'>, launcher: boolean): Layer[] {
  const toolbars = elements.filter((e) => kindOf(e) === 'toolbar');
  return elements.map((e) => {
    const kind = kindOf(e);
    const ground = launcher ? 'wallpaper' : kind !== 'toolbar' && toolbars.some((t) => inside(e, t)) ? 'primary' : 'surface';
    if (!e.clip) return { top: e.bounds.top - MARGIN, bottom: e.bounds.bottom + MARGIN, svg: paintElement(kind, e, { ...base, ground }) };
    // Scrolled content: drawn where it lies, cut at the band's edges (a row half out of the list shows its half).
    const { drawn, top, bottom } = e.clip;
    const id = `band${top}_${bottom}`;
    const clip = `<defs><clipPath id="${id}"><rect x="0" y="${top}" width="${SIM_SCREEN.width}" height="${bottom - top}"/></clipPath></defs>`;
    const svg = paintElement(kind, { ...e, bounds: drawn }, { ...base, ground });
    return { top: e.bounds.top - MARGIN, bottom: e.bounds.bottom + MARGIN, svg: svg ? `${clip}<g clip-path="url(#${id})">${svg}</g>` : '' };
  });
}

export function viewLayers(view: SimView): Layer[] {
  const theme = themeFor(view.package);
  const launcher = view.package === LAUNCHER_PACKAGE;
  const layers: Layer[] = [{ ...FULL, svg: launcher ? WALLPAPER : `<rect width="1080" height="2400" fill="${theme.background}"/>` }];
  const front = view.dialog ? view.dialog.beneath : view.elements;
  if (view.dialog) {
    layers.push(...elementLayers(view.dialog.beneath, { theme, inDialog: false }, false));
    layers.push({ ...FULL, svg: SCRIM });
    layers.push(...elementLayers(view.elements, { theme, inDialog: true }, false));
  } else {
    layers.push(...elementLayers(view.elements, { theme, inDialog: false }, launcher));
  }
  const hasToolbar = front.some((e) => kindOf(e) === 'toolbar' && e.bounds.top <= 100);
  const barBackground = launcher ? null : hasToolbar ? theme.primary : theme.background;
  const ink = launcher || hasToolbar ? '#FFFFFF' : theme.text;
  layers.push({ top: 0, bottom: STATUS_BAR_HEIGHT, svg: statusBarSvg(view.statusBar.time, view.statusBar.battery, barBackground, ink) });
  if (view.dialog) layers.push({ top: 0, bottom: STATUS_BAR_HEIGHT, svg: `<rect width="1080" height="${STATUS_BAR_HEIGHT}" fill="#000000" opacity="0.42"/>` });
  if (view.keyboard) layers.push({ top: KEYBOARD_TOP, bottom: SIM_SCREEN.height, svg: keyboardSvg() });
  layers.push({ top: 2340, bottom: SIM_SCREEN.height, svg: gestureHandleSvg(launcher ? '#FFFFFF' : view.keyboard ? '#5F6368' : theme.text) });
  return layers.filter((l) => l.svg !== '');
}

/** The rows `top` to `top + height` of the screen, from the layers that reach them, drawn at `scale`. */
export function bandSvg(layers: Layer[], top: number, height: number, scale = 1): string {
  const body = layers
    .filter((l) => l.bottom > top && l.top < top + height)
    .map((l) => l.svg)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(SIM_SCREEN.width * scale)}" height="${Math.round(height * scale)}" viewBox="0 ${top} ${SIM_SCREEN.width} ${height}" font-family="${FONT_FAMILY}">${body}</svg>`;
}

/** The whole screen in one document, scaled to `width`×`height`. */
export function viewToSvg(view: SimView, width: number = SIM_SCREEN.width, height: number = SIM_SCREEN.height): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${SIM_SCREEN.width} ${SIM_SCREEN.height}" font-family="${FONT_FAMILY}">${viewLayers(view)
    .map((l) => l.svg)
    .join('')}</svg>`;
}
