import { type Static, Type } from 'typebox';
import { PageQuery, Paged } from '../../core/paging.js';
import { DateTime, StringEnum } from '../../core/schema.js';
import { MACRO_KINDS } from '../../core/values.js';

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Description = Type.String({ maxLength: 2000 });
/**
 * The block program: an object (`{"version": 1, "steps": [...]}`) or an array (`[]`, the
 * empty form older clients send). null and scalars are refused: they are no program. Its
 * size is bounded by the 1 MiB body limit and its nesting by the body depth limit.
 */
const Blocks = Type.Unsafe<Record<string, unknown> | unknown[]>({
  type: ['object', 'array'],
  items: {},
  additionalProperties: {},
  description: 'The block program (block macros only): an object, or `[]` for an empty program.',
});

export const Macro = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    kind: StringEnum(MACRO_KINDS),
    description: Type.Optional(Type.String()),
    blocks: Type.Optional(Type.Unknown()),
    installed_from: Type.Optional(
      Type.Object(
        { listing_id: Type.Integer(), version: Type.Integer() },
        { description: 'The marketplace listing and version this macro was installed from; absent for macros made here' },
      ),
    ),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'Macro' },
);

export const CreateMacroBody = Type.Object(
  { name: Name, kind: StringEnum(MACRO_KINDS, { description: '`python` is a code macro' }), description: Type.Optional(Description), blocks: Type.Optional(Blocks) },
  { additionalProperties: false },
);
export type CreateMacroInput = Static<typeof CreateMacroBody>;

export const UpdateMacroBody = Type.Object(
  { name: Type.Optional(Name), description: Type.Optional(Description), blocks: Type.Optional(Blocks) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateMacroInput = Static<typeof UpdateMacroBody>;

export const MacroListQuery = Type.Object(
  { ...PageQuery, name: Type.Optional(Type.String({ maxLength: 100, description: 'Case-insensitive substring' })) },
  { additionalProperties: false },
);
export type MacroListInput = Static<typeof MacroListQuery>;

export const MacroPage = Paged(Macro, 'MacroPage');
