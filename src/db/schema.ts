// Table types for Kysely. Timestamps are Unix milliseconds (bigint on PostgreSQL, integer
// on SQLite) so comparisons and ordering behave the same on both engines; booleans are 0/1.
import type { ColumnType, Generated } from 'kysely';
import type {
  CloudRunState,
  DeliveryStatus,
  EndpointDisabledReason,
  ExecutionType,
  GroupKind,
  HostedState,
  ImageContentType,
  ImageSource,
  MacroKind,
  ProxyMode,
  ProxyScheme,
  ProxyStatus,
  RunStatus,
  SessionType,
  SubscriptionStatus,
  WebhookScopeMode,
} from '../core/values.js';
import type { MapExplorationsTable, MenuMapScreensTable, MenuMapsTable, MenuMapTransitionsTable } from './schema-maps.js';
import type { AuthoringMessagesTable, AuthoringSessionsTable, CreditAllowancesTable, CreditChargesTable } from './schema-authoring.js';
import type { MarketplaceImagesTable, MarketplaceListingsTable, MarketplaceListingTagsTable, MarketplaceReviewsTable, MarketplaceVersionsTable } from './schema-marketplace.js';
import type { ScheduleOccurrencesTable, SchedulesTable } from './schema-scheduler.js';
import type { IdempotencyKeysTable } from './schema-idempotency.js';
import type { RunTraceFramesTable, RunTracePicturesTable, RunTracesTable, RunTraceStepsTable } from './schema-traces.js';
import type { RecordingStepsTable, RecordingsTable } from './schema-recorder.js';
import type { ProxiesTable, ProxyAssignmentsTable, ProxySecretRevealsTable, ProxyUsageDailyTable, ProxyUsageSamplesTable } from './schema-proxies.js';

export type { ProxiesTable, ProxyAssignmentsTable, ProxySecretRevealsTable, ProxyUsageDailyTable, ProxyUsageSamplesTable } from './schema-proxies.js';

// The column unions come from the one list of each (core/values.ts); re-exported for the
// code that reads them with the table types.
export type { CloudRunState, DeliveryStatus, HostedState, ProxyMode, ProxyScheme, ProxyStatus, RunStatus, SessionType, WebhookScopeMode };

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string | null;
  password_hash: string;
  created_at: number;
  /** Set when the operator disables the account; its keys then answer api_key_not_user_scoped. */
  disabled_at: number | null;
}

export interface SubscriptionsTable {
  user_id: number;
  status: SubscriptionStatus;
  plan: string | null;
  trial_ends_at: number | null;
  current_period_end: number | null;
  updated_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  key_hash: string;
  prefix: string;
  /** JSON array of scope names; empty means full access. */
  scopes: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface MacrosTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  kind: MacroKind;
  description: string | null;
  /** JSON of the block program (block macros only). */
  blocks: string | null;
  /** The marketplace listing and version an installed copy came from (null otherwise). */
  installed_listing_id: number | null;
  installed_version: number | null;
  created_at: number;
  updated_at: number;
}

export interface DeviceGroupsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: string | null;
  kind: GroupKind;
  created_at: number;
  updated_at: number;
}

export interface DevicesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** The local device's port; null for cloud devices. */
  port: number | null;
  is_hosted: number;
  hosted_state: HostedState | null;
  /** Why a cloud device is in `error` (null otherwise). */
  hosted_state_message: string | null;
  group_id: number | null;
  macro_id: number | null;
  profile_id: number | null;
  run_count: Generated<number>;
  created_at: number;
  updated_at: number;
  /** The lifecycle job's lease (the devices table is its queue). */
  locked_until: number | null;
  locked_by: string | null;
  /** DELETE asked for while the device still had to be shut down; the job deletes the row. */
  delete_requested_at: number | null;
}

export interface MacroSettingProfilesTable {
  id: Generated<number>;
  user_id: number;
  macro_id: number;
  name: string;
  /** JSON object of argument values. */
  args: string;
  is_default: number;
  created_at: number;
  updated_at: number;
}

export interface ExecutionsTable {
  id: Generated<number>;
  user_id: number;
  execution_id: string;
  status: RunStatus;
  macro_id: number | null;
  macro_name: string | null;
  device_id: number | null;
  device_name: string | null;
  device_port: number | null;
  group_id: number | null;
  execution_type: ExecutionType;
  started_at: number;
  ended_at: number | null;
  duration_ms: number | null;
  exit_code: number | null;
  error_message: string | null;
  proxy_exit_ip: string | null;
  proxy_country: string | null;
  created_at: number;
  updated_at: number;
}

export interface RunLogBatchesTable {
  id: Generated<number>;
  execution_pk: number;
  seq: number;
  line_start: number;
  line_count: number;
  /** JSON array of strings. */
  lines: string;
  created_at: number;
}

export interface RunCountsTable {
  user_id: number;
  status: RunStatus;
  /** One of RUN_COUNT_SHARDS rows per (user, status); a count is their sum. */
  shard: Generated<number>;
  n: number;
}

export interface EventsTable {
  id: Generated<number>;
  user_id: number;
  event_id: string;
  type: string;
  device_id: number | null;
  /** The exact bytes sent to webhook endpoints. */
  payload: string;
  created_at: number;
}

export interface CodeSnapshotsTable {
  id: Generated<number>;
  user_id: number;
  macro_id: number;
  /** decisions.md §5; unique per macro. */
  worktree_hash: string;
  entry_path: string;
  /** The files' total size, uncompressed. */
  size_bytes: number;
  file_count: number;
  /** The uploaded zip, as sent, kept once in `code_blobs` under its SHA-256. */
  zip_sha256: string;
  created_at: number;
}

/** Each distinct zip once (blob on SQLite, bytea on PostgreSQL), shared by snapshots and marketplace versions. */
export interface CodeBlobsTable {
  sha256: string;
  zip: Buffer;
  size_bytes: number;
  created_at: number;
}

/** Which snapshot is a code macro's current one; no row until its first sync. */
export interface CodeSyncStateTable {
  macro_id: number;
  snapshot_id: number;
  updated_at: number;
}

/** The image library (ids `img_` + 16 lowercase hex, unique per owner); written only by modules/images. */
export interface ImagesTable {
  user_id: number;
  id: string;
  name: string;
  width: number;
  height: number;
  content_type: ImageContentType;
  size_bytes: number;
  /** SHA-256 hex of `content`: the content route's ETag. */
  sha256: string;
  source: ImageSource;
  content: Buffer;
  created_at: number;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  description: string | null;
  /** JSON array of patterns: `*`, `prefix.*` or exact type names. */
  event_types: string;
  secret_encrypted: string;
  secret_prefix: string;
  scope_mode: WebhookScopeMode;
  /** JSON arrays of ids; empty unless the scope mode uses them. */
  scope_group_ids: string;
  scope_device_ids: string;
  enabled: number;
  consecutive_failures: Generated<number>;
  first_failure_at: number | null;
  disabled_reason: EndpointDisabledReason | null;
  last_success_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  user_id: number;
  endpoint_id: number;
  event_pk: number;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  schedule_step: Generated<number>;
  next_attempt_at: number | null;
  locked_until: number | null;
  locked_by: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_response_body: string | null;
  delivered_at: number | null;
  created_at: number;
  updated_at: number;
}

export type PlacementStatus = 'placed' | 'booting' | 'ready';

/** A cloud device's slot on its device host, from placing until it stops. */
export interface DevicePlacementsTable {
  device_id: number;
  host: 'sim' | 'adb';
  /** `host:port/serial` on adb (unique: one phone, one device); null on sim. */
  slot: string | null;
  server: string | null;
  serial: string | null;
  status: PlacementStatus;
  /** The screen as read when the device became ready (adb); null on sim and before. */
  screen_width: number | null;
  screen_height: number | null;
  density: number | null;
  created_at: number;
  updated_at: number;
  /** adb: the phone's own values of the settings the host changed at boot (JSON), restored at stop. */
  restore_settings: string | null;
  /** adb: the physical display screencap takes (`-d`), on a phone with several; null: its default. */
  screen_display: string | null;
}

/** A simulated device: runtime state and installed apps as JSON, written compare-and-set on `version`. */
export interface SimDevicesTable {
  device_id: number;
  booted: number;
  state: string;
  installed: string;
  version: number;
  updated_at: number;
}

/** Labels read from the manifests of APKs installed through the service (ADB devices report only package names). */
export interface ApkLabelsTable {
  package: string;
  version_code: number;
  label: string;
  version_name: string;
  updated_at: number;
}

/** A macro run on a cloud device (decisions.md §10); also the runs' job queue. */
export interface CloudRunsTable {
  id: Generated<number>;
  user_id: number;
  /** `cr_` + 24 lowercase hex; the run history record has the same. */
  execution_id: string;
  device_id: number;
  macro_id: number;
  macro_kind: 'python' | 'block';
  state: CloudRunState;
  state_message: string | null;
  /** JSON object: the run's arguments as resolved at creation (the profile's, with the run's own laid over them). */
  args: string;
  entry_path: string | null;
  /** SHA-256 hex of exactly what runs: the zip, or the block program's canonical JSON. */
  bundle_sha: string;
  /** The snapshot's worktree hash; null for block macros. */
  code_ref: string | null;
  /** SHA-256 hex of the device-RPC token while the run process lives. */
  token_hash: string | null;
  started_at: number | null;
  finished_at: number | null;
  locked_until: number | null;
  locked_by: string | null;
  created_at: number;
  updated_at: number;
}

/** What a cloud run executes, pinned when it is created. */
/** One caller's hold on a cloud device (decisions.md §9); at most one per device. */
export interface DeviceLeasesTable {
  device_id: number;
  lease_id: string;
  user_id: number;
  key_id: number | null;
  /** A background job holding the device (`exploration`, migration 0016); null for a caller. Such a lease is never shared or extended by a caller. */
  held_by_job: ColumnType<string | null, string | null | undefined, string | null>;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

/** Tool-server tokens (migration 0011): SHA-256 of the token, the key it was minted from. */
export interface McpTokensTable {
  token_hash: string;
  key_id: number;
  /** JSON array of scopes. */
  scopes: string;
  expires_at: number;
  created_at: number;
}

export interface CloudRunBundlesTable {
  run_id: number;
  content: Buffer;
}

/** A short exclusive lease on a name (src/db/named-locks.ts). */
export interface NamedLocksTable {
  name: string;
  holder: string;
  locked_until: number;
}

export interface Database {
  users: UsersTable;
  subscriptions: SubscriptionsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  macros: MacrosTable;
  device_groups: DeviceGroupsTable;
  devices: DevicesTable;
  macro_setting_profiles: MacroSettingProfilesTable;
  executions: ExecutionsTable;
  run_log_batches: RunLogBatchesTable;
  run_counts: RunCountsTable;
  events: EventsTable;
  code_snapshots: CodeSnapshotsTable;
  code_sync_state: CodeSyncStateTable;
  code_blobs: CodeBlobsTable;
  marketplace_listings: MarketplaceListingsTable;
  marketplace_listing_tags: MarketplaceListingTagsTable;
  marketplace_versions: MarketplaceVersionsTable;
  marketplace_reviews: MarketplaceReviewsTable;
  marketplace_images: MarketplaceImagesTable;
  images: ImagesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  proxies: ProxiesTable;
  proxy_assignments: ProxyAssignmentsTable;
  proxy_secret_reveals: ProxySecretRevealsTable;
  proxy_usage_samples: ProxyUsageSamplesTable;
  proxy_usage_daily: ProxyUsageDailyTable;
  device_placements: DevicePlacementsTable;
  named_locks: NamedLocksTable;
  sim_devices: SimDevicesTable;
  apk_labels: ApkLabelsTable;
  cloud_runs: CloudRunsTable;
  cloud_run_bundles: CloudRunBundlesTable;
  device_leases: DeviceLeasesTable;
  mcp_tokens: McpTokensTable;
  map_explorations: MapExplorationsTable;
  menu_maps: MenuMapsTable;
  menu_map_screens: MenuMapScreensTable;
  menu_map_transitions: MenuMapTransitionsTable;
  authoring_sessions: AuthoringSessionsTable;
  authoring_messages: AuthoringMessagesTable;
  credit_charges: CreditChargesTable;
  credit_allowances: CreditAllowancesTable;
  schedules: SchedulesTable;
  schedule_occurrences: ScheduleOccurrencesTable;
  idempotency_keys: IdempotencyKeysTable;
  run_traces: RunTracesTable;
  run_trace_steps: RunTraceStepsTable;
  run_trace_frames: RunTraceFramesTable;
  run_trace_pictures: RunTracePicturesTable;
  recordings: RecordingsTable;
  recording_steps: RecordingStepsTable;
}

export type { MarketplaceListingsTable, MarketplaceListingTagsTable, MarketplaceReviewsTable, MarketplaceVersionsTable, ScheduleOccurrencesTable, SchedulesTable };
