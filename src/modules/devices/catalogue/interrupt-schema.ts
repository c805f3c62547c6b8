// An interrupt as JSON (decisions.md §16): `{when: selector, do: action}`, where the action is
// a tap (of what `when` names, or of its own target) or a key. The device RPC takes a run's
// interrupts in this shape; block programs describe the same in their JSON Schema.
import { Type } from 'typebox';
import { Coordinate } from './entry.js';
import { Selector } from './selector.js';

export const InterruptSchema = Type.Object(
  {
    when: Selector,
    do: Type.Union([
      Type.Object(
        { type: Type.Literal('tap'), selector: Type.Optional(Selector), x: Type.Optional(Coordinate), y: Type.Optional(Coordinate) },
        { additionalProperties: false, description: 'Tap what `when` names (or this selector, or x, y)' },
      ),
      Type.Object({ type: Type.Literal('key'), key: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false, description: 'Press a key' }),
    ]),
  },
  { additionalProperties: false },
);

export const MAX_INTERRUPT_RULES = 20;
export const Interrupts = Type.Array(InterruptSchema, { maxItems: MAX_INTERRUPT_RULES, description: 'The run\'s interrupts, handled while a wait polls (at most five handlings a wait)' });
