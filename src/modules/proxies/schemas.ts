// Route schemas for proxies, assignments, connection info and usage.
import { type Static, Type } from 'typebox';
import { PageQuery, Paged } from '../../core/paging.js';
import { DateTime, Id, Nullable, StringEnum } from '../../core/schema.js';
import { CHECKED_PROXY_STATUSES, GATEWAYS, PROXY_CHECK_ERRORS, PROXY_MODES, PROXY_SCHEMES, PROXY_STATUSES, SESSION_TYPES } from '../../core/values.js';
import { IMPORT_MAX_LINES } from './import-parser.js';

export const PERIODS = ['today', 'week', 'month', 'all'] as const;

const Country = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code' });
const Asn = Type.Integer({ minimum: 1, maximum: 4_294_967_295 });
const Place = Type.String({ minLength: 1, maxLength: 64 });

export const TargetingSchema = Type.Object(
  {
    countries: Type.Optional(Type.Array(Country, { maxItems: 50 })),
    exclude_countries: Type.Optional(Type.Array(Country, { maxItems: 50 })),
    state: Type.Optional(Place),
    city: Type.Optional(Place),
    zip: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
    asn: Type.Optional(Asn),
    exclude_asn: Type.Optional(Type.Array(Asn, { maxItems: 50 })),
  },
  { additionalProperties: false, $id: 'ProxyTargeting', description: 'Gateway targeting; what the provider cannot express is checked on the exit' },
);
export type Targeting = Static<typeof TargetingSchema>;

export const Proxy = Type.Object(
  {
    id: Type.Integer(),
    mode: StringEnum(PROXY_MODES),
    label: Type.Optional(Type.String()),
    scheme: StringEnum(PROXY_SCHEMES),
    host: Type.String(),
    port: Type.Integer(),
    username: Type.Optional(Type.String()),
    session_type: StringEnum(SESSION_TYPES),
    gateway: Type.Optional(StringEnum(GATEWAYS)),
    targeting: Type.Optional(TargetingSchema),
    status: StringEnum(PROXY_STATUSES),
    last_check_at: Type.Optional(DateTime()),
    last_exit_ip: Type.Optional(Type.String()),
    last_exit_country: Type.Optional(Type.String()),
    last_latency_ms: Type.Optional(Type.Integer()),
    last_error: Type.Optional(Type.String()),
    created_at: DateTime(),
  },
  { $id: 'Proxy', description: 'A proxy. The password is never part of it.' },
);

export const ProxyPage = Paged(Proxy, 'ProxyPage');

export const ProxyListQuery = Type.Object(
  { mode: Type.Optional(StringEnum(PROXY_MODES)), status: Type.Optional(StringEnum(PROXY_STATUSES)), ...PageQuery },
  { additionalProperties: false },
);
export type ProxyListInput = Static<typeof ProxyListQuery>;

const Credential = Type.String({ maxLength: 255 });

export const CreateProxyBody = Type.Object(
  {
    host: Type.String({ minLength: 1, maxLength: 255, description: 'Host name or IP address; IPv6 with or without brackets' }),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    scheme: Type.Optional(StringEnum(PROXY_SCHEMES, { default: 'http' })),
    label: Type.Optional(Type.String({ maxLength: 100 })),
    username: Type.Optional(Credential),
    password: Type.Optional(Credential),
    session_type: Type.Optional(StringEnum(SESSION_TYPES, { description: 'Default for new assignments; sticky unless told' })),
    gateway: Type.Optional(Nullable(StringEnum(GATEWAYS))),
    target_countries: Type.Optional(Type.Array(Country, { maxItems: 50 })),
    exclude_countries: Type.Optional(Type.Array(Country, { maxItems: 50 })),
    target_state: Type.Optional(Place),
    target_city: Type.Optional(Place),
    target_zip: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
    target_asn: Type.Optional(Asn),
    exclude_asn: Type.Optional(Type.Array(Asn, { maxItems: 50 })),
  },
  { additionalProperties: false },
);
export type CreateProxyInput = Static<typeof CreateProxyBody>;

export const UpdateProxyBody = Type.Object(
  { label: Type.Optional(Nullable(Type.String({ maxLength: 100 }))), targeting: Type.Optional(TargetingSchema) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateProxyInput = Static<typeof UpdateProxyBody>;

export const ImportBody = Type.Object(
  { proxies: Type.String({ description: `One proxy per line, at most ${IMPORT_MAX_LINES} lines: host:port, host:port:user:pass or scheme://user:pass@host:port` }) },
  { additionalProperties: false },
);
export type ImportInput = Static<typeof ImportBody>;

export const ImportResult = Type.Object({
  created_count: Type.Integer(),
  error_count: Type.Integer(),
  created: Type.Array(Proxy),
  errors: Type.Array(Type.Object({ line: Type.Integer(), raw: Type.String({ description: 'The line with its password masked' }), reason: Type.String() })),
});

export const ValidationResult = Type.Object({
  proxy_id: Type.Integer(),
  status: StringEnum(CHECKED_PROXY_STATUSES),
  reachable: Type.Boolean(),
  latency_ms: Type.Optional(Type.Integer({ description: 'Connect plus first byte' })),
  exit_ip: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
  city: Type.Optional(Type.String()),
  asn: Type.Optional(Type.Integer()),
  error: Type.Optional(StringEnum(PROXY_CHECK_ERRORS)),
});

export const Assignment = Type.Object(
  {
    id: Type.Integer(),
    proxy_id: Type.Integer(),
    proxy: Proxy,
    emulator_device_id: Type.Integer(),
    device_name: Type.String(),
    device_port: Type.Optional(Type.Integer()),
    session_id: Type.Optional(Type.String({ description: '8 lowercase letters and digits; sticky sessions only' })),
    session_type: StringEnum(SESSION_TYPES),
    active: Type.Boolean(),
    created_at: DateTime(),
  },
  { $id: 'ProxyAssignment' },
);

export const AssignmentList = Type.Object({ items: Type.Array(Assignment), total: Type.Integer() }, { $id: 'ProxyAssignmentList' });

export const CreateAssignmentBody = Type.Object(
  { proxy_id: Id('A proxy of the caller'), emulator_device_id: Id('A device of the caller'), session_type: Type.Optional(StringEnum(SESSION_TYPES)) },
  { additionalProperties: false },
);
export type CreateAssignmentInput = Static<typeof CreateAssignmentBody>;

export const DeviceParams = Type.Object({ device_id: Id('A device of the caller') });
export type DeviceInput = Static<typeof DeviceParams>;

export const ConnectionInfoQuery = Type.Object({ include_secrets: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false });
export type ConnectionInfoInput = Static<typeof ConnectionInfoQuery>;

const Endpoint = Type.Object({ scheme: Type.String(), host: Type.String(), port: Type.Integer() });

export const ConnectionInfo = Type.Object({
  scheme: StringEnum(PROXY_SCHEMES),
  host: Type.String(),
  port: Type.Integer(),
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String({ description: '******** unless include_secrets=true' })),
  session_id: Type.Optional(Type.String()),
  session_type: StringEnum(SESSION_TYPES),
  secrets_revealed: Type.Boolean(),
  relay: Type.Object({
    mode: StringEnum(['direct', 'local_relay'] as const),
    local: Endpoint,
    device_steps: Type.Array(Type.String()),
    teardown: Type.Array(Type.String()),
    covers: Type.String(),
  }),
});

export const UsageQuery = Type.Object({ period: Type.Optional(StringEnum(PERIODS, { default: 'today' })) }, { additionalProperties: false });
export type UsageInput = Static<typeof UsageQuery>;

const Bytes = { bytes_up: Type.Integer(), bytes_down: Type.Integer(), bytes_total: Type.Integer() };

export const UsageReport = Type.Object({
  period: StringEnum(PERIODS),
  since: Nullable(DateTime()),
  items: Type.Array(Type.Object({ proxy_id: Type.Integer(), label: Type.Optional(Type.String()), host: Type.String(), ...Bytes })),
  devices: Type.Array(Type.Object({ device_id: Type.Integer(), device_name: Type.Optional(Type.String()), ...Bytes })),
  groups: Type.Array(Type.Object({ group_id: Type.Integer(), group_name: Type.String(), ...Bytes })),
  days: Type.Array(Type.Object({ date: Type.String({ format: 'date', description: 'A UTC day, YYYY-MM-DD.' }), ...Bytes }), {
    description: 'All proxies together per UTC day of the period, oldest first; days without samples are left out.',
  }),
  ...Bytes,
});

export const UsageSamplesBody = Type.Object(
  {
    samples: Type.Array(
      Type.Object(
        {
          proxy_id: Id('A proxy of the caller'),
          device_id: Type.Optional(Id('A device of the caller')),
          bytes_up: Type.Integer({ minimum: 0, maximum: 1_099_511_627_776 }),
          bytes_down: Type.Integer({ minimum: 0, maximum: 1_099_511_627_776 }),
          at: Type.Optional(DateTime()),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { additionalProperties: false },
);
export type UsageSamplesInput = Static<typeof UsageSamplesBody>;

export const ManagedProxyBody = CreateProxyBody;
