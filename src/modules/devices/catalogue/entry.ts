// The shape of one catalogue entry (decisions.md §16): its name as the tool server uses it,
// its argument and result schemas, and its rule, run against an ActionEnv. Surfaces add only
// their own framing (a lease id, a run token, a model's tool call) and map errors.
import { type Static, type TObject, type TSchema, Type } from 'typebox';
import { UiElementWithCenter } from '../schemas.js';
import type { ActionEnv } from './env.js';

/** What an action answers: data matching its output schema, a sentence, and a picture for the screenshot. */
export interface ActionAnswer {
  data?: Record<string, unknown>;
  /** One line saying what happened (a tool's text result, the agent's message summary). */
  text: string;
  image?: { base64: string; mimeType: 'image/jpeg'; caption: string };
}

export interface CatalogueEntry<I extends TObject = TObject> {
  name: string;
  title: string;
  /** What it does and when to use it: models read this to choose the action. */
  description: string;
  input: I;
  output?: TObject;
  readOnly?: boolean;
  destructive?: boolean;
  run(env: ActionEnv, input: Static<I>): Promise<ActionAnswer>;
}

export const defineEntry = <I extends TObject>(entry: CatalogueEntry<I>) => entry as unknown as CatalogueEntry;

export const Element = UiElementWithCenter;
export const Coordinate = Type.Integer({ minimum: 0, maximum: 100_000, description: 'Device pixels' });
export const Point = Type.Object({ x: Coordinate, y: Coordinate }, { additionalProperties: false });
export const BoundsSchema = Type.Object({ left: Type.Integer(), top: Type.Integer(), right: Type.Integer(), bottom: Type.Integer() });
export const Center = Type.Object({ x: Type.Integer(), y: Type.Integer() });
export const TimeoutMs = Type.Integer({ minimum: 0, maximum: 600_000, description: 'How long to wait for the element, ms (default 10000, at most 600000)' });
export const PackageName = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_.]+$', description: 'An Android package name, like com.example.app' });
export const strict = <T extends Record<string, TSchema>>(properties: T) => Type.Object(properties, { additionalProperties: false });
