// Matching fixtures generated from the simulated device: screens drawn by the sim host's own
// renderer (renderSimScreen), templates cropped from them (icons, buttons, pictures, text)
// and resized as another screen density would draw them, and screens where a template is
// absent. Deterministic: the same list in the same order on every run. Screens are drawn and
// decoded once per process (the costly part), so a test can use a subset cheaply and the
// benchmark the whole set.
import sharp from 'sharp';
import { DEMO_APP_PACKAGE, type DrawnText, renderSimScreen, type SimScreenRequest, type UiElement } from '../../src/modules/devices/index.js';
import { decodeGray, type GrayImage } from '../../src/modules/vision/index.js';

export const DENSITY_FACTORS = [0.5, 0.75, 1, 1.5, 2] as const;

export type ScreenName = keyof typeof SCREENS;

const shop = (stack: string[], fields?: Record<string, string>): SimScreenRequest => ({ package: DEMO_APP_PACKAGE, stack, fields });
export const SCREENS = {
  home: {},
  catalog: shop(['catalog']),
  product_beans: shop(['catalog', 'product_beans']),
  product_mug: shop(['catalog', 'product_mug']),
  added_to_cart: shop(['catalog', 'product_beans', 'added_to_cart']),
  checkout: shop(['catalog', 'checkout'], { 'checkout.full_name': 'Ada Lovelace', 'checkout.city': 'London' }),
  settings: shop(['catalog', 'settings']),
  sign_in: shop(['catalog', 'sign_in']),
  account: shop(['catalog', 'sign_in', 'account'], { 'sign_in.email': 'ada@example.com' }),
  settings_home: { package: 'com.android.settings', stack: ['settings_home'] },
  about_phone: { package: 'com.android.settings', stack: ['settings_home', 'about_phone'] },
} satisfies Record<string, SimScreenRequest>;

export interface FixtureScreen {
  name: ScreenName;
  png: Buffer;
  gray: GrayImage;
  elements: UiElement[];
  texts: DrawnText[];
}

const screens = new Map<ScreenName, Promise<FixtureScreen>>();

export function fixtureScreen(name: ScreenName): Promise<FixtureScreen> {
  let screen = screens.get(name);
  if (!screen) {
    screen = (async () => {
      const shot = await renderSimScreen(SCREENS[name]);
      return { name, png: shot.data, gray: await decodeGray(shot.data, 'screen'), elements: shot.elements, texts: shot.texts };
    })();
    screens.set(name, screen);
  }
  return screen;
}

export interface CropSpec {
  kind: 'icon' | 'button' | 'picture' | 'text';
  screen: ScreenName;
  /** The element's bounds, shrunk by `inset` px on each side… */
  element?: string;
  inset?: number;
  /** …or the drawn text's box, grown by 6 px. */
  text?: string;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const shopCrops: Record<string, CropSpec> = {
  'settings gear': { kind: 'icon', screen: 'catalog', element: 'settings', inset: 24 },
  'account icon': { kind: 'icon', screen: 'catalog', element: 'account', inset: 24 },
  'navigate-up arrow': { kind: 'icon', screen: 'product_beans', element: 'navigate_up', inset: 24 },
  'Checkout button': { kind: 'button', screen: 'catalog', element: 'checkout' },
  'Add to cart button': { kind: 'button', screen: 'product_beans', element: 'add_to_cart' },
  'Place order button': { kind: 'button', screen: 'checkout', element: 'place_order' },
  'beans thumbnail': { kind: 'picture', screen: 'catalog', element: 'thumb_beans' },
  'mug thumbnail': { kind: 'picture', screen: 'catalog', element: 'thumb_mug' },
  'kettle thumbnail': { kind: 'picture', screen: 'catalog', element: 'thumb_kettle' },
  'filters thumbnail': { kind: 'picture', screen: 'catalog', element: 'thumb_filters' },
  '"Espresso beans" text': { kind: 'text', screen: 'catalog', text: 'Espresso beans' },
  '"Ceramic mug" text': { kind: 'text', screen: 'catalog', text: 'Ceramic mug' },
  '"Delivery" text': { kind: 'text', screen: 'catalog', text: 'Delivery' },
  '"Coffee & brewing" text': { kind: 'text', screen: 'catalog', text: 'Coffee & brewing' },
};

export const CROPS: Record<string, CropSpec> = {
  ...shopCrops,
  'About phone text': { kind: 'text', screen: 'settings_home', text: 'About phone' },
  'Corner Shop launcher icon': { kind: 'icon', screen: 'home', element: 'app_0' },
};

/**
 * Where each crop's picture is not, at any scale (checked by eye on the screens, and by the
 * test's own "present" cases: each of these screens holds look-alikes of the crop — the same
 * button style, the same font — but not the crop).
 */
export const ABSENT: Record<string, ScreenName[]> = {
  'settings gear': ['product_beans', 'sign_in', 'home', 'about_phone'],
  'account icon': ['product_beans', 'settings', 'checkout', 'home'],
  'Checkout button': ['product_beans', 'sign_in', 'account', 'settings_home'],
  'Add to cart button': ['catalog', 'checkout', 'sign_in', 'about_phone'],
  'Place order button': ['catalog', 'product_mug', 'account', 'home'],
  'beans thumbnail': ['product_mug', 'checkout', 'settings', 'home'],
  'mug thumbnail': ['product_beans', 'sign_in', 'settings_home', 'account'],
  '"Espresso beans" text': ['product_mug', 'checkout', 'settings', 'about_phone'],
  '"Ceramic mug" text': ['product_beans', 'settings', 'sign_in', 'home'],
  '"Delivery" text': ['product_beans', 'sign_in', 'settings', 'account'],
  'About phone text': ['catalog', 'settings', 'sign_in', 'account'],
  'Corner Shop launcher icon': ['catalog', 'settings_home', 'product_mug', 'checkout'],
};

/** The crop's box on its screen. */
export async function cropBox(spec: CropSpec): Promise<Box> {
  const screen = await fixtureScreen(spec.screen);
  if (spec.text !== undefined) {
    const t = screen.texts.find((d) => d.text === spec.text);
    if (!t) throw new Error(`no drawn text "${spec.text}" on ${spec.screen}`);
    const b = t.bounds;
    return { x: b.left - 6, y: b.top - 6, w: b.right - b.left + 12, h: b.bottom - b.top + 12 };
  }
  const e = screen.elements.find((el) => el.element_id === spec.element);
  if (!e) throw new Error(`no element ${spec.element} on ${spec.screen}`);
  const inset = spec.inset ?? 0;
  return { x: e.bounds.left + inset, y: e.bounds.top + inset, w: e.bounds.right - e.bounds.left - 2 * inset, h: e.bounds.bottom - e.bounds.top - 2 * inset };
}

/** PNG bytes of the crop, resized by `factor` (the template another density would give). */
export async function cropPng(spec: CropSpec, factor: number): Promise<Buffer> {
  const screen = await fixtureScreen(spec.screen);
  const { x, y, w, h } = await cropBox(spec);
  const cut = sharp(screen.png).extract({ left: x, top: y, width: w, height: h });
  if (factor === 1) return cut.png().toBuffer();
  const raw = await cut.png().toBuffer();
  return sharp(raw)
    .resize(Math.round(w * factor), Math.round(h * factor))
    .png()
    .toBuffer();
}

export interface MatchCase {
  /** `present`: the crop, resized by `factor`, must be found at its spot on its own screen; `absent`: nothing may score on `screen`. */
  kind: 'present' | 'absent';
  crop: string;
  factor: number;
  screen: ScreenName;
}

/** The full fixture set, in a fixed order: every crop at every density, and each absent pairing at one density (cycled). */
export function matchCases(): MatchCase[] {
  const present = Object.entries(CROPS).flatMap(([crop, spec]) => DENSITY_FACTORS.map((factor): MatchCase => ({ kind: 'present', crop, factor, screen: spec.screen })));
  const absent = Object.entries(ABSENT).flatMap(([crop, screens]) => screens.map((screen, i): MatchCase => ({ kind: 'absent', crop, factor: DENSITY_FACTORS[i % DENSITY_FACTORS.length], screen })));
  return [...present, ...absent];
}

export interface CaseResult {
  hit: boolean;
  best: { x: number; y: number; w: number; h: number; score: number; scale: number } | undefined;
  expected?: Box;
}

/** Hit: for a present case, the best match's top-left within 4 px of the crop's; for an absent one, no match at all. */
export function judge(matchCase: MatchCase, matches: CaseResult['best'][], expected: Box | undefined): CaseResult {
  const best = matches[0];
  if (matchCase.kind === 'absent') return { hit: best === undefined, best };
  const hit = best !== undefined && expected !== undefined && Math.abs(best.x - expected.x) <= 4 && Math.abs(best.y - expected.y) <= 4;
  return { hit, best, expected };
}
