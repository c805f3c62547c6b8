// The JSON that describes a simulated app (decisions.md §9): `package`, `label`,
// `screens[{id, title, activity, elements[{id, class, text, resource_id, content_desc,
// bounds, clickable, editable, to?}]}]`, plus an optional `version_name`/`version_code` for
// the app list. The same description feeds the UI tree and the picture.
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';

export const SIM_SCREEN = { width: 1080, height: 2400, density: 420 } as const;

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
  },
  { additionalProperties: false },
);

export const SimScreenSchema = Type.Object(
  { id: Id, title: Type.String({ maxLength: 200 }), activity: Type.String({ minLength: 1, maxLength: 300 }), elements: Type.Array(SimElementSchema, { maxItems: 400 }) },
  { additionalProperties: false },
);

export const SimAppSchema = Type.Object(
  {
    package: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$', maxLength: 255 }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
    version_name: Type.Optional(Type.String({ maxLength: 100 })),
    version_code: Type.Optional(Type.Integer({ minimum: 0 })),
    screens: Type.Array(SimScreenSchema, { minItems: 1, maxItems: 200 }),
  },
  { additionalProperties: false },
);

export type SimBounds = Static<typeof SimBoundsSchema>;
export type SimElement = Static<typeof SimElementSchema>;
export type SimScreen = Static<typeof SimScreenSchema>;
export type SimApp = Static<typeof SimAppSchema>;

export class SimAppDescriptionError extends Error {}

/** Checks the shape, then what a schema cannot say: unique ids, links that land, bounds on the screen. */
export function parseSimApp(input: unknown): SimApp {
  if (!Value.Check(SimAppSchema, input)) {
    const problems = Value.Errors(SimAppSchema, input)
      .filter((e) => e.keyword !== 'boolean')
      .slice(0, 5)
      .map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new SimAppDescriptionError(`Invalid app description: ${problems.join('; ')}`);
  }
  const app = input;
  const where = (screen: SimScreen, element?: SimElement) => `${app.package} screen ${screen.id}${element ? ` element ${element.id}` : ''}`;
  const screenIds = new Set<string>();
  for (const screen of app.screens) {
    if (screenIds.has(screen.id)) throw new SimAppDescriptionError(`Invalid app description: ${where(screen)} is defined twice`);
    screenIds.add(screen.id);
  }
  for (const screen of app.screens) {
    const elementIds = new Set<string>();
    for (const element of screen.elements) {
      if (elementIds.has(element.id)) throw new SimAppDescriptionError(`Invalid app description: ${where(screen, element)} is defined twice`);
      elementIds.add(element.id);
      const b = element.bounds;
      if (b.right <= b.left || b.bottom <= b.top || b.right > SIM_SCREEN.width || b.bottom > SIM_SCREEN.height) {
        throw new SimAppDescriptionError(`Invalid app description: ${where(screen, element)} has bounds outside the ${SIM_SCREEN.width}×${SIM_SCREEN.height} screen or empty`);
      }
      const to = element.to;
      if (to !== undefined && to !== 'back' && !to.startsWith('package:') && !screenIds.has(to)) {
        throw new SimAppDescriptionError(`Invalid app description: ${where(screen, element)} leads to unknown screen "${to}"`);
      }
    }
  }
  return app;
}
