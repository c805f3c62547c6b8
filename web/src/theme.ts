// The console's look: Mantine's defaults with an indigo accent, the system font stack
// (nothing fetched from a font CDN), and colours chosen for WCAG AA contrast: a darker
// "dimmed" grey, dark text on light tints, and filled buttons dark enough for white text.
import { createTheme, type CSSVariablesResolver, defaultVariantColorsResolver, parseThemeColor, type VariantColorsResolver } from '@mantine/core';

/** Text on a light tint: shade 9, or darker still where Mantine's 9 is too light. */
const TEXT_ON_TINT: Record<string, string> = { green: '#1e6b30', teal: '#0b5e47', yellow: '#6b4700', orange: '#9c3406', lime: '#466100', cyan: '#0a5f6e', red: '#b02525' };
/** Filled backgrounds under white text: the dark text colour (or shade 9) where shade 7 is too light for 4.5:1. */
const FILLED_DARK = new Set(['red', 'green', 'teal', 'orange', 'yellow', 'cyan', 'lime', 'pink', 'gray']);

const variantColorResolver: VariantColorsResolver = (input) => {
  const result = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return result;
  const hue = parsed.color;
  if (input.variant === 'light' || input.variant === 'subtle' || input.variant === 'outline') {
    const text = TEXT_ON_TINT[hue] ?? `var(--mantine-color-${hue}-9)`;
    return { ...result, color: text, hoverColor: text, ...(input.variant === 'outline' ? { border: `1px solid ${text}` } : {}) };
  }
  if (input.variant === 'filled' && FILLED_DARK.has(hue)) {
    const background = TEXT_ON_TINT[hue] ?? `var(--mantine-color-${hue}-9)`;
    return { ...result, background, hover: background, color: '#fff' };
  }
  return result;
};

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 7,
  defaultRadius: 'md',
  variantColorResolver,
  // People who ask their system for less motion get dialogs and menus without animation.
  respectReducedMotion: true,
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  headings: { fontWeight: '650' },
  components: {
    Card: { defaultProps: { withBorder: true, radius: 'md', shadow: 'xs' } },
    Table: { defaultProps: { verticalSpacing: 'sm', horizontalSpacing: 'md', highlightOnHover: true } },
    Badge: { defaultProps: { radius: 'sm', tt: 'none' } },
    TableScrollContainer: { defaultProps: { type: 'native' } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' }, radius: 'md', overlayProps: { backgroundOpacity: 0.45 } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

/** Text colours with at least 4.5:1 on white and on the light tints, for status words. */
export const TEXT = { success: TEXT_ON_TINT.green, warning: TEXT_ON_TINT.orange, danger: TEXT_ON_TINT.red } as const;

export const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-8)',
    // A field's error and the text of a field in error: Mantine's red 6 has 3.3:1 on white.
    '--mantine-color-error': TEXT_ON_TINT.red,
    '--mantine-color-body': '#ffffff',
  },
  dark: {},
});
