// Route schemas for webhook endpoints, deliveries and custom events.
import { type Static, Type } from 'typebox';
import { PageQuery, Paged } from '../../core/paging.js';
import { DateTime, Id, StringEnum } from '../../core/schema.js';
import { DELIVERY_STATUSES, ENDPOINT_DISABLED_REASONS, WEBHOOK_SCOPE_MODES } from '../../core/values.js';

export const ENDPOINT_LIMIT = 10;
export const CUSTOM_DATA_MAX_BYTES = 64 * 1024;

const EventPattern = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^(\\*|[a-z0-9_-]+(\\.[a-z0-9_-]+)*(\\.\\*)?)$',
  description: '`*`, `prefix.*` (for example `custom.*`), or an exact event type',
});
const IdList = (what: string) => Type.Array(Id(`${what} id`), { maxItems: 100, uniqueItems: true });

const endpointFields = {
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'HTTPS URL; private and internal addresses are refused' }),
  description: Type.String({ maxLength: 255 }),
  event_types: Type.Array(EventPattern, { minItems: 1, maxItems: 50, uniqueItems: true }),
  scope_mode: StringEnum(WEBHOOK_SCOPE_MODES, { description: '`all` devices, listed `groups`, or listed `devices`' }),
  scope_group_ids: IdList('Device group'),
  scope_device_ids: IdList('Device'),
};

export const CreateEndpointBody = Type.Object(
  {
    url: endpointFields.url,
    description: Type.Optional(endpointFields.description),
    event_types: Type.Optional({ ...endpointFields.event_types, default: ['*'] }),
    scope_mode: Type.Optional({ ...endpointFields.scope_mode, default: 'all' }),
    scope_group_ids: Type.Optional(endpointFields.scope_group_ids),
    scope_device_ids: Type.Optional(endpointFields.scope_device_ids),
  },
  { additionalProperties: false },
);
export type CreateEndpointInput = Static<typeof CreateEndpointBody>;

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(endpointFields.url),
    description: Type.Optional(endpointFields.description),
    event_types: Type.Optional(endpointFields.event_types),
    enabled: Type.Optional(Type.Boolean({ description: '`true` re-enables the endpoint and clears its failure streak' })),
    scope_mode: Type.Optional(endpointFields.scope_mode),
    scope_group_ids: Type.Optional(endpointFields.scope_group_ids),
    scope_device_ids: Type.Optional(endpointFields.scope_device_ids),
  },
  { additionalProperties: false },
);
export type UpdateEndpointInput = Static<typeof UpdateEndpointBody>;

export const WebhookEndpoint = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    description: Type.Optional(Type.String()),
    event_types: Type.Array(Type.String()),
    secret_prefix: Type.String({ description: 'The first 12 characters of the signing secret' }),
    scope_mode: StringEnum(WEBHOOK_SCOPE_MODES),
    scope_group_ids: Type.Array(Type.Integer()),
    scope_device_ids: Type.Array(Type.Integer()),
    scope_device_count: Type.Integer({ description: 'How many devices the scope covers now' }),
    enabled: Type.Boolean(),
    consecutive_failures: Type.Integer(),
    disabled_reason: Type.Optional(StringEnum(ENDPOINT_DISABLED_REASONS)),
    last_success_at: Type.Optional(DateTime()),
    created_at: DateTime(),
  },
  { $id: 'WebhookEndpoint' },
);

export const EndpointList = Type.Object({ items: Type.Array(WebhookEndpoint), total: Type.Integer() }, { $id: 'WebhookEndpointList' });

export const EndpointWithSecret = Type.Object({
  secret: Type.String({ description: 'The signing secret (`whsec_…`); shown this once' }),
  endpoint: WebhookEndpoint,
  warning: Type.String(),
});

export const TestResult = Type.Object({ queued: Type.Boolean(), event_id: Type.Optional(Type.String()), message: Type.String() });

const deliveryFields = {
  id: Type.Integer(),
  endpoint_id: Type.Integer(),
  event_id: Type.String(),
  event_type: Type.String(),
  status: StringEnum(DELIVERY_STATUSES),
  attempts: Type.Integer(),
  next_attempt_at: Type.Optional(DateTime({ description: 'Present only while pending' })),
  last_status_code: Type.Optional(Type.Integer()),
  last_error: Type.Optional(Type.String()),
  last_response_body: Type.Optional(Type.String({ description: 'The first 16 KiB of the last response body' })),
  delivered_at: Type.Optional(DateTime()),
  created_at: DateTime(),
};

export const WebhookDelivery = Type.Object(deliveryFields, { $id: 'WebhookDelivery' });
export const WebhookDeliveryWithPayload = Type.Object(
  { ...deliveryFields, payload: Type.String({ description: 'The exact body sent on every attempt' }) },
  { $id: 'WebhookDeliveryWithPayload' },
);
export const DeliveryPage = Paged(WebhookDelivery, 'WebhookDeliveryPage');

export const DeliveryListQuery = Type.Object(
  { endpoint_id: Type.Optional(Id('Only deliveries to this endpoint')), status: Type.Optional(StringEnum(DELIVERY_STATUSES)), ...PageQuery },
  { additionalProperties: false },
);
export type DeliveryListInput = Static<typeof DeliveryListQuery>;

export const CustomEventBody = Type.Object(
  {
    // The pattern guarantees the prefix the event type's TypeScript type names.
    type: Type.Unsafe<`custom.${string}`>(Type.String({ pattern: '^custom\\.[a-z0-9._-]{1,64}$', description: '`custom.` followed by 1 to 64 of a-z 0-9 . _ -' })),
    data: Type.Object({}, { additionalProperties: true, description: 'At most 64 KB as JSON' }),
    device_id: Type.Optional(Id('The device the event concerns (for scopes)')),
    execution_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type CustomEventInput = Static<typeof CustomEventBody>;

export const CustomEventResult = Type.Object({ event_id: Type.String(), deliveries: Type.Integer({ description: 'How many deliveries were queued' }) });
