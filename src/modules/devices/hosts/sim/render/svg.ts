// The whole screen as one SVG document: background, the elements in order (each drawn by
// its kind), a dimmed screen beneath a dialog, the status bar and the gesture handle.
import { SIM_SCREEN } from '../app-schema.js';
import { LAUNCHER_PACKAGE } from '../state.js';
import type { SimView, ViewElement } from '../view.js';
import { kindOf } from './element-kind.js';
import { type PaintContext, paintElement } from './painters.js';
import { FONT_FAMILY, themeFor } from './palette.js';
import { gestureHandleSvg, statusBarSvg } from './status-bar.js';

const WALLPAPER =
  '<defs><linearGradient id="wallpaper" x1="0" y1="0" x2="0.6" y2="1"><stop offset="0" stop-color="#1B2A4A"/><stop offset="0.55" stop-color="#3B3F8C"/><stop offset="1" stop-color="#7A4E8F"/></linearGradient></defs>' +
  '<rect width="1080" height="2400" fill="url(#wallpaper)"/>' +
  '<circle cx="900" cy="700" r="420" fill="#FFFFFF" opacity="0.05"/><circle cx="120" cy="1700" r="520" fill="#FFFFFF" opacity="0.04"/>';

function inside(inner: ViewElement, outer: ViewElement): boolean {
  const a = inner.bounds;
  const b = outer.bounds;
  return a.left >= b.left && a.top >= b.top && a.right <= b.right && a.bottom <= b.bottom;
}

function paintAll(elements: ViewElement[], base: Omit<PaintContext, 'ground'>, launcher: boolean): string {
  const toolbars = elements.filter((e) => kindOf(e) === 'toolbar');
  return elements
    .map((e) => {
      const kind = kindOf(e);
      const ground = launcher ? 'wallpaper' : kind !== 'toolbar' && toolbars.some((t) => inside(e, t)) ? 'primary' : 'surface';
      return paintElement(kind, e, { ...base, ground });
    })
    .join('');
}

export function viewToSvg(view: SimView, width: number = SIM_SCREEN.width, height: number = SIM_SCREEN.height): string {
  const theme = themeFor(view.package);
  const launcher = view.package === LAUNCHER_PACKAGE;
  const parts: string[] = [launcher ? WALLPAPER : `<rect width="1080" height="2400" fill="${theme.background}"/>`];
  const top = view.dialog ? view.dialog.beneath : view.elements;
  if (view.dialog) {
    parts.push(paintAll(view.dialog.beneath, { theme, inDialog: false }, false));
    parts.push('<rect width="1080" height="2400" fill="#000000" opacity="0.42"/>');
    parts.push(paintAll(view.elements, { theme, inDialog: true }, false));
  } else {
    parts.push(paintAll(view.elements, { theme, inDialog: false }, launcher));
  }
  const hasToolbar = top.some((e) => kindOf(e) === 'toolbar' && e.bounds.top <= 100);
  const barBackground = launcher ? null : hasToolbar ? theme.primary : theme.background;
  const ink = launcher || hasToolbar ? '#FFFFFF' : theme.text;
  parts.push(statusBarSvg(view.statusBar.time, view.statusBar.battery, barBackground, ink));
  if (view.dialog) parts.push(`<rect width="1080" height="84" fill="#000000" opacity="0.42"/>`);
  parts.push(gestureHandleSvg(launcher ? '#FFFFFF' : theme.text));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${SIM_SCREEN.width} ${SIM_SCREEN.height}" font-family="${FONT_FAMILY}">` +
    parts.join('') +
    '</svg>'
  );
}
