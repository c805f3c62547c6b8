// The menu-map routes' and tool's schemas (app-api.md "Menu maps", decisions.md §12): one
// schema per route serves validation, types and OpenAPI.
import { type Static, Type } from 'typebox';
import { DateTime, Id, Nullable, StringEnum } from '../../core/schema.js';
import { EXPLORATION_STATES } from '../../core/values.js';
import { DEFAULT_DO_NOT_TOUCH } from './explorer/do-not-touch.js';

export const EXPLORATION_LIMITS = { maxScreens: { min: 1, max: 500, default: 50 }, maxMinutes: { min: 1, max: 60, default: 10 } } as const;

/** An Android package name, as the device hosts accept it. */
export const PackageName = Type.String({
  pattern: '^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$',
  maxLength: 255,
  description: 'An Android package name, e.g. `com.example.shop`',
});

export const StartExplorationBody = Type.Object(
  {
    device_id: Id('One of your cloud devices; it is held for the exploration (busy for runs and leases) until it ends'),
    package: PackageName,
    max_screens: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'Stop after this many screens (1 to 500, default 50)' })),
    max_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 10, description: 'Stop after this many minutes (1 to 60, default 10)' })),
    do_not_touch: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }), {
        maxItems: 50,
        description: `Phrases: an element whose text, description or resource id says one of them is never tapped. Replaces the default list (${DEFAULT_DO_NOT_TOUCH.map((p) => `"${p}"`).join(', ')}); pass the default's phrases too to keep them. Matched as whole words in any case, across spaces, underscores, hyphens and camelCase.`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type StartExplorationInput = Static<typeof StartExplorationBody>;

export const Exploration = Type.Object(
  {
    id: Type.Integer(),
    device_id: Nullable(Type.Integer({ description: 'Null once the device was deleted' })),
    package: Type.String(),
    state: StringEnum(EXPLORATION_STATES),
    state_message: Nullable(Type.String({ description: 'How it ended: complete, the limit it reached, why it failed (e.g. its worker was lost), or that it was stopped' })),
    screens_found: Type.Integer(),
    transitions_found: Type.Integer(),
    actions: Type.Integer({ description: 'Taps, BACK presses and app restarts sent so far' }),
    max_screens: Type.Integer(),
    max_minutes: Type.Integer(),
    do_not_touch: Type.Array(Type.String()),
    created_at: DateTime(),
    started_at: Nullable(DateTime()),
    finished_at: Nullable(DateTime()),
  },
  { $id: 'MapExploration' },
);
export type ExplorationRecord = Static<typeof Exploration>;

const Bounds = Type.Object({ left: Type.Integer(), top: Type.Integer(), right: Type.Integer(), bottom: Type.Integer() });

export const MapElement = Type.Object({ resource_id: Type.String(), text: Type.String(), content_desc: Type.String(), class: Type.String(), bounds: Bounds });

export const MapAction = Type.Object({
  type: StringEnum(['tap', 'back'] as const),
  element: Nullable(MapElement),
});

export const MapScreen = Type.Object({
  screen_id: Type.String({ description: '`scr_` + 16 hex of the screen structure (classes and resource ids of its visible elements): the same screen has the same id in every exploration' }),
  title: Type.String(),
  activity: Nullable(Type.String()),
  element_count: Type.Integer(),
  thumbnail_image_id: Nullable(Type.String({ description: 'The screen as the explorer first saw it, in your image library (`img_…`, source `crop`, a JPEG at most 480 px high); null when it could not be stored or was deleted from the library' })),
  path: Type.Array(MapAction, { description: 'The steps that first reached this screen from a fresh start of the app (empty for the first screen); replaying them reaches it again' }),
});

export const MapTransition = Type.Object({ from: Type.String(), to: Type.String(), action: MapAction });

export const MenuMap = Type.Object(
  {
    package: Type.String(),
    screens: Type.Array(MapScreen),
    transitions: Type.Array(MapTransition),
    updated_at: DateTime(),
  },
  { $id: 'MenuMap' },
);
export type MenuMapRecord = Static<typeof MenuMap>;

export const MapSummary = Type.Object({ package: Type.String(), screen_count: Type.Integer(), transition_count: Type.Integer(), updated_at: DateTime() });
export const MapList = Type.Object({ items: Type.Array(MapSummary) });

export const PackageParams = Type.Object({ package: PackageName });
