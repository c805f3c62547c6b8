import { type Static, Type } from 'typebox';
import { DateTime, Nullable } from '../../core/schema.js';
import { Subscription } from '../billing/index.js';

export const User = Type.Object(
  { id: Type.Integer(), email: Type.String(), name: Nullable(Type.String()), created_at: DateTime() },
  { $id: 'User' },
);

export const Session = Type.Object(
  {
    token: Type.String({ description: 'The session credential (prefix `sess_`), shown only here.' }),
    expires_at: DateTime(),
  },
  { $id: 'Session' },
);

export const SignupBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 8, maxLength: 1024 }),
    name: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type SignupInput = Static<typeof SignupBody>;

export const LoginBody = Type.Object(
  { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);
export type LoginInput = Static<typeof LoginBody>;

export const SignedIn = Type.Object({ user: User, session: Session, subscription: Subscription });
export const Me = Type.Object({ user: User, subscription: Subscription });
