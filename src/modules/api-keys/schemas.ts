import { type Static, Type } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.js';
import { EXPIRY_CHOICES, KEY_STATES } from '../../core/values.js';
import { SCOPES } from '../../core/context.js';

export const ScopeName = StringEnum(SCOPES, { description: 'A key scope' });

export const ApiKey = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    prefix: Type.String({ description: 'The first twelve characters of the key.' }),
    state: StringEnum(KEY_STATES),
    scopes: Type.Array(ScopeName, { description: 'Empty means full access.' }),
    created_at: DateTime(),
    expires_at: Nullable(DateTime({ description: 'null for a key that never expires' })),
    last_used_at: Nullable(DateTime()),
    revoked_at: Nullable(DateTime()),
  },
  { $id: 'ApiKey' },
);

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    expires_in: Type.Optional(StringEnum(EXPIRY_CHOICES, { default: '90d' })),
    scopes: Type.Optional(Type.Array(ScopeName, { maxItems: 20, description: 'Empty or absent = full access. Fixed at creation.' })),
  },
  { additionalProperties: false },
);
export type CreateKeyInput = Static<typeof CreateKeyBody>;

export const CreatedKey = Type.Object({
  key: Type.String({ description: 'The whole key. It is returned only here, once.' }),
  api_key: ApiKey,
});

export const KeyList = Type.Object({ items: Type.Array(ApiKey) });

export const WhoAmI = Type.Object({
  user: Type.Object({ id: Type.Integer(), email: Type.String() }),
  api_key: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    prefix: Type.String(),
    scopes: Type.Array(ScopeName),
    expires_at: Nullable(DateTime()),
  }),
});
