// Bodies and answers of the device RPC, one schema each, shared by validation, the OpenAPI
// description and the types of the functions in functions.ts.
import { type TSchema, Type } from 'typebox';
import { UiElementWithCenter } from '../../devices/index.js';
import { Nullable } from '../../../core/schema.js';
import { MAX_SWIPE_MS } from '../blocks/program-schema.js';

/** A custom event's `data`, as JSON: the same 64 KB as the application's custom events. */
export const EVENT_DATA_MAX_BYTES = 64 * 1024;

const Coordinate = (description: string) => Type.Integer({ minimum: 0, maximum: 100_000, description });
const Text = Type.String({ minLength: 1, maxLength: 10_000 });
const PackageName = Type.String({ minLength: 1, maxLength: 255, description: 'An Android package name, like com.example.shop' });

export const Point = Type.Object({ x: Type.Integer(), y: Type.Integer() });

export const Element = UiElementWithCenter;

export const ElementAnswer = Type.Object({ element: Nullable(Element) });
export const FoundElement = Type.Object({ element: Element });
export const Done = Type.Object({ ok: Type.Literal(true) });

const strict = <T extends Record<string, TSchema>>(properties: T) => Type.Object(properties, { additionalProperties: false });

export const Bodies = {
  tap: strict({ x: Coordinate('Device pixels from the left'), y: Coordinate('Device pixels from the top') }),
  tap_text: strict({ text: Text }),
  tap_element: strict({ element_id: Type.String({ minLength: 1, maxLength: 200 }) }),
  swipe: strict({
    x1: Coordinate('Start'),
    y1: Coordinate('Start'),
    x2: Coordinate('End'),
    y2: Coordinate('End'),
    ms: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SWIPE_MS, default: 300, description: 'How long the finger moves' })),
  }),
  type_text: strict({
    text: Type.String({ maxLength: 10_000 }),
    secret: Type.Optional(Type.Boolean({ description: 'A password or other secret: the run trace shows "•••" for the text' })),
  }),
  key: strict({ name: Type.String({ minLength: 1, maxLength: 64, description: 'An Android key: BACK, HOME, ENTER, APP_SWITCH, DEL, …' }) }),
  find_text: strict({ text: Text }),
  find_image: strict({
    image_id: Type.String({ pattern: '^img_[0-9a-f]{16}$', description: 'An image-library id' }),
    threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0.9 })),
  }),
  open_app: strict({ package: PackageName }),
  close_app: strict({ package: PackageName }),
  emit_event: strict({
    name: Type.String({ pattern: '^[a-z0-9._-]{1,64}$', description: 'The event is `custom.<name>`: 1 to 64 of a-z 0-9 . _ -' }),
    data: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'At most 64 KB as JSON' })),
  }),
};

export const Answers = {
  elements: Type.Object({ elements: Type.Array(Element) }),
  currentApp: Type.Object({ package: Type.String(), activity: Nullable(Type.String()) }),
  event: Type.Object({ event_id: Type.String() }),
  matches: Type.Object({ matches: Type.Array(Type.Object({ x: Type.Integer(), y: Type.Integer(), w: Type.Integer(), h: Type.Integer(), score: Type.Number() })) }),
};

export const DeviceParams = Type.Object({ device_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "The run's device" }) });
