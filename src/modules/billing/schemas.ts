import { Type } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.js';
import { SUBSCRIPTION_STATUSES } from '../../core/values.js';

export const Subscription = Type.Object(
  {
    status: StringEnum(SUBSCRIPTION_STATUSES),
    plan: Nullable(Type.String()),
    trial_ends_at: Nullable(DateTime()),
    current_period_end: Nullable(DateTime()),
  },
  { $id: 'Subscription' },
);
