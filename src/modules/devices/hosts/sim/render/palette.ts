// Colours of the simulated phone: a light Material-style theme per app, with the app's own
// primary colour (fixed for the built-in apps, derived from the package name for others).

export interface AppTheme {
  primary: string;
  onPrimary: string;
  /** Light tint of the primary, for tiles and tracks. */
  container: string;
  background: string;
  surface: string;
  text: string;
  textMuted: string;
  outline: string;
  divider: string;
}

const FIXED: Record<string, [string, string]> = {
  'com.example.shop': ['#6F4E37', '#F3E7DD'],
  'com.example.feed': ['#00677F', '#D3EEF5'],
  'com.android.settings': ['#1A5FB4', '#DCE7F7'],
};

function hue(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

/** An app's icon and accent colour. */
export function appColor(pkg: string): string {
  return FIXED[pkg]?.[0] ?? `hsl(${hue(pkg)}, 45%, 42%)`;
}

export function themeFor(pkg: string): AppTheme {
  const [primary, container] = FIXED[pkg] ?? [appColor(pkg), `hsl(${hue(pkg)}, 45%, 92%)`];
  return {
    primary,
    onPrimary: '#FFFFFF',
    container,
    background: '#FBF8F6',
    surface: '#FFFFFF',
    text: '#1E1B19',
    textMuted: '#6B625C',
    outline: '#8E8580',
    divider: '#ECE6E2',
  };
}

/** Pastel tile colours for pictures, picked by name so a product always looks the same. */
export function tileColors(name: string): [string, string] {
  const h = hue(name);
  return [`hsl(${h}, 55%, 86%)`, `hsl(${(h + 30) % 360}, 50%, 72%)`];
}

export const FONT_FAMILY = "Roboto, 'Noto Sans', 'DejaVu Sans', sans-serif";
