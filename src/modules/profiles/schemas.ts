import { type Static, Type } from 'typebox';
import { DateTime, Id } from '../../core/schema.js';

/** `args` as JSON, at most 64 KB (service-api.md, Limits). Checked in the service: JSON Schema cannot measure it. */
export const ARGS_MAX_BYTES = 65_536;

export const ProfileIdParams = Type.Object({ id: Id('A settings profile') });
export type ProfileIdInput = Static<typeof ProfileIdParams>;

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: '1 to 100 characters, unique per macro; `Default` is reserved' });

/** A JSON object keyed by argument name; any other JSON value is refused (422). */
const Args = (description = 'Values keyed by argument name; at most 64 KB as JSON.') =>
  Type.Object(
    { __cli_args__: Type.Optional(Type.String({ description: 'A pre-rendered command line, where one was stored' })) },
    { additionalProperties: true, description },
  );

export const Profile = Type.Object(
  {
    id: Type.Integer(),
    macro_id: Type.Integer(),
    name: Type.String(),
    args: Args(),
    is_default: Type.Boolean({ description: 'The macro\'s `Default` profile: it cannot be renamed or deleted' }),
    devices_using: Type.Integer({ description: 'Devices that follow this profile, counted when read' }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'MacroSettingProfile' },
);

export const ProfileList = Type.Object({ items: Type.Array(Profile) });

export const ProfileListQuery = Type.Object({ macro_id: Id('A code macro') }, { additionalProperties: false });
export type ProfileListInput = Static<typeof ProfileListQuery>;

export const CreateProfileBody = Type.Object(
  { macro_id: Id('A code macro of the caller'), name: Name, args: Type.Optional(Args()) },
  { additionalProperties: false },
);
export type CreateProfileInput = Static<typeof CreateProfileBody>;

export const UpdateProfileBody = Type.Object(
  { name: Type.Optional(Name), args: Type.Optional(Args('Replaces the whole set; at most 64 KB as JSON.')) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateProfileInput = Static<typeof UpdateProfileBody>;

export const DeletedProfile = Type.Object({
  deleted: Type.Boolean(),
  repointed_to: Type.Integer({ description: 'The macro\'s `Default` profile, which the deleted profile\'s devices now follow' }),
});
