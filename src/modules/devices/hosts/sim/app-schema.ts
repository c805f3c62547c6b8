// The JSON that describes a simulated app (decisions.md §9, §15): `package`, `label`,
// `screens[{id, title, activity, elements[{id, class, text, resource_id, content_desc,
// bounds, clickable, editable, to?}]}]`, plus an optional `version_name`/`version_code` for
// the app list, and the optional behaviours of §15: a screen's `loading_ms` and `scroll`, an
// element's `appear_after_ms`, `hide_after_ms` and `fixed`, the app's `interrupts`; and our
// own element `sets` (values a tap passes to another screen's placeholders). The same
// description feeds the UI tree and the picture. The rules a schema cannot say are in app-rules.ts.
import { type Static, Type } from 'typebox';

export const SIM_SCREEN = { width: 1080, height: 2400, density: 420 } as const;
/** How far down a scrolling screen's content may reach (§15). */
export const SIM_CONTENT_MAX_Y = 100_000;

const Id = Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' });

export const SimBoundsSchema = Type.Object(
  { left: Type.Integer({ minimum: 0 }), top: Type.Integer({ minimum: 0 }), right: Type.Integer({ minimum: 1 }), bottom: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);

export const SimElementSchema = Type.Object(
  {
    id: Id,
    class: Type.String({ minLength: 1, maxLength: 200 }),
    /** Shown text; for an editable field, the hint shown while it is empty. May hold `{screen.element|fallback}`. */
    text: Type.String({ maxLength: 2000 }),
    resource_id: Type.String({ maxLength: 200 }),
    content_desc: Type.String({ maxLength: 500 }),
    bounds: SimBoundsSchema,
    clickable: Type.Boolean(),
    editable: Type.Boolean(),
    /** Where a tap leads: a screen id of the same app, `back`, or `package:<name>` (opens that app). */
    to: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    /** Absent until this long after the screen was entered (after its loading). */
    appear_after_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
    /** Present only this long after it appeared (a toast, a snackbar). */
    hide_after_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
    /** On a scrolling screen: stays put (a bottom bar) instead of scrolling with the content. */
    fixed: Type.Optional(Type.Boolean()),
    /**
     * A tap writes these values where `{screen.element}` placeholders read them, before it
     * follows `to`: how a list row opens its own item on one detail screen, as an app passes
     * the item to the page it starts.
     */
    sets: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 2000 }), { maxProperties: 20 })),
  },
  { additionalProperties: false },
);

export const SimLoadingSchema = Type.Object({ min: Type.Integer({ minimum: 0, maximum: 30_000 }), max: Type.Integer({ minimum: 0, maximum: 30_000 }) }, { additionalProperties: false });

export const SimScrollSchema = Type.Object(
  { top: Type.Integer({ minimum: 0, maximum: SIM_SCREEN.height - 1 }), bottom: Type.Integer({ minimum: 1, maximum: SIM_SCREEN.height }) },
  { additionalProperties: false },
);

export const SimScreenSchema = Type.Object(
  {
    id: Id,
    title: Type.String({ maxLength: 200 }),
    activity: Type.String({ minLength: 1, maxLength: 300 }),
    elements: Type.Array(SimElementSchema, { maxItems: 1000 }),
    /** Each time the screen is entered it shows only a progress indicator, for a time drawn from this range. */
    loading_ms: Type.Optional(SimLoadingSchema),
    /** The band (device pixels, full width) in which the content below `top` scrolls. */
    scroll: Type.Optional(SimScrollSchema),
  },
  { additionalProperties: false },
);

export const SimInterruptSchema = Type.Object(
  {
    /** A dialog screen of the same app, put over whatever the app shows. */
    screen: Id,
    /** On every n-th open of the app. */
    every_opens: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    /** Once, from the n-th open on. */
    after_opens: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    /** With this probability per open (with the counts above: when they hold). */
    probability: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false },
);

export const SimAppSchema = Type.Object(
  {
    package: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$', maxLength: 255 }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
    version_name: Type.Optional(Type.String({ maxLength: 100 })),
    version_code: Type.Optional(Type.Integer({ minimum: 0 })),
    screens: Type.Array(SimScreenSchema, { minItems: 1, maxItems: 200 }),
    interrupts: Type.Optional(Type.Array(SimInterruptSchema, { maxItems: 20 })),
  },
  { additionalProperties: false },
);

export type SimBounds = Static<typeof SimBoundsSchema>;
export type SimElement = Static<typeof SimElementSchema>;
export type SimScreen = Static<typeof SimScreenSchema>;
export type SimInterrupt = Static<typeof SimInterruptSchema>;
export type SimApp = Static<typeof SimAppSchema>;

export class SimAppDescriptionError extends Error {}

/** A dialog is a screen whose first element is a panel smaller than the screen that holds all the others. */
export function isDialogScreen(screen: SimScreen): boolean {
  const [panel, ...rest] = screen.elements;
  if (!panel || panel.clickable) return false;
  const p = panel.bounds;
  const area = (p.right - p.left) * (p.bottom - p.top);
  if (area > SIM_SCREEN.width * SIM_SCREEN.height * 0.7) return false;
  return rest.every((e) => e.bounds.left >= p.left && e.bounds.top >= p.top && e.bounds.right <= p.right && e.bounds.bottom <= p.bottom);
}

/** On a scrolling screen, the elements that scroll: below the band's top and not `fixed`. */
export function scrollsWithContent(screen: Pick<SimScreen, 'scroll'>, element: SimElement): boolean {
  return screen.scroll !== undefined && element.bounds.top >= screen.scroll.top && element.fixed !== true;
}

export { parseSimApp } from './app-rules.js';
