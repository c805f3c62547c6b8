import { type Static, Type } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.js';
import { SUBSCRIPTION_STATUSES } from '../../core/values.js';

export const SubscriptionPatch = Type.Object(
  {
    status: Type.Optional(StringEnum(SUBSCRIPTION_STATUSES)),
    plan: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    trial_ends_at: Type.Optional(Nullable(DateTime())),
    current_period_end: Type.Optional(Nullable(DateTime())),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type SubscriptionPatchInput = Static<typeof SubscriptionPatch>;
