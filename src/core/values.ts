// Every closed set of values the service stores or answers, listed once. Each list feeds the
// TypeBox enum of its schemas (StringEnum), the TypeScript union below, the column type in
// db/schema.ts and, where it is stored, a CHECK constraint in the migration that creates the
// column (db/columns.ts `oneOf`). Changing a stored list later needs a migration that
// rewrites its CHECK.

type ValueOf<T extends readonly unknown[]> = T[number];

// Accounts and keys
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'inactive'] as const;
export type SubscriptionStatus = ValueOf<typeof SUBSCRIPTION_STATUSES>;
/** Not stored: the state follows from revoked_at and expires_at. */
export const KEY_STATES = ['Active', 'Revoked', 'Expired'] as const;
export type KeyState = ValueOf<typeof KEY_STATES>;
/** Not stored: the expiry a new key is given. */
export const EXPIRY_CHOICES = ['30d', '90d', '1y', 'never'] as const;
export type ExpiryChoice = ValueOf<typeof EXPIRY_CHOICES>;

// Macros, devices and runs
export const MACRO_KINDS = ['python', 'block'] as const;
export type MacroKind = ValueOf<typeof MACRO_KINDS>;
/** `byod`: devices on the user's own machine (local devices); `cloud`: hosted (cloud) devices. */
export const GROUP_KINDS = ['byod', 'cloud'] as const;
export type GroupKind = ValueOf<typeof GROUP_KINDS>;
export const HOSTED_STATES = ['stopped', 'placing', 'starting', 'ready', 'stopping', 'error'] as const;
export type HostedState = ValueOf<typeof HOSTED_STATES>;
export const RUN_STATUSES = ['running', 'completed', 'failed', 'stopped'] as const;
export type RunStatus = ValueOf<typeof RUN_STATUSES>;
/** A run's type: the kind of the macro it ran, when it started. */
export const EXECUTION_TYPES = ['block', 'python'] as const;
export type ExecutionType = ValueOf<typeof EXECUTION_TYPES>;
export const CLOUD_RUN_STATES = ['launching', 'running', 'finished', 'failed', 'stopping', 'stopped'] as const;
export type CloudRunState = ValueOf<typeof CLOUD_RUN_STATES>;
/** A cloud run in these states holds its device: no second run, no lease, no tap from the live view. */
export const ACTIVE_RUN_STATES = ['launching', 'running', 'stopping'] as const satisfies readonly CloudRunState[];
/** Not stored: what an accepted code snapshot tells its sender. */
export const SNAPSHOT_WARNING_CODES = ['entry_defaulted', 'large_file', 'unknown_image'] as const;
export type SnapshotWarningCode = ValueOf<typeof SNAPSHOT_WARNING_CODES>;

// Image library
/** How an image came in: uploaded by a person, cut from a device screen, or a menu map's screen thumbnail. */
export const IMAGE_SOURCES = ['upload', 'crop'] as const;
export type ImageSource = ValueOf<typeof IMAGE_SOURCES>;
export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
export type ImageContentType = ValueOf<typeof IMAGE_CONTENT_TYPES>;

// Proxies
export const PROXY_MODES = ['byop', 'managed'] as const;
export type ProxyMode = ValueOf<typeof PROXY_MODES>;
export const PROXY_SCHEMES = ['http', 'https', 'socks5'] as const;
export type ProxyScheme = ValueOf<typeof PROXY_SCHEMES>;
export const PROXY_STATUSES = ['unchecked', 'live', 'dead'] as const;
export type ProxyStatus = ValueOf<typeof PROXY_STATUSES>;
/** What a check concludes: every status but `unchecked`. */
export const CHECKED_PROXY_STATUSES = ['live', 'dead'] as const satisfies readonly ProxyStatus[];
/** Why the last check failed; `targeting_mismatch`: reachable, but the exit broke the gateway's targeting. */
export const PROXY_CHECK_ERRORS = ['auth_failed', 'unreachable', 'timeout', 'targeting_mismatch'] as const;
export type ProxyCheckError = ValueOf<typeof PROXY_CHECK_ERRORS>;
export const SESSION_TYPES = ['sticky', 'rotating'] as const;
export type SessionType = ValueOf<typeof SESSION_TYPES>;
export const GATEWAYS = ['brightdata', 'oxylabs', 'decodo', 'iproyal', 'soax'] as const;
export type Gateway = ValueOf<typeof GATEWAYS>;

// Webhooks
export const WEBHOOK_SCOPE_MODES = ['all', 'groups', 'devices'] as const;
export type WebhookScopeMode = ValueOf<typeof WEBHOOK_SCOPE_MODES>;
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'exhausted'] as const;
export type DeliveryStatus = ValueOf<typeof DELIVERY_STATUSES>;
export const ENDPOINT_DISABLED_REASONS = ['consecutive_failures', 'gone'] as const;
export type EndpointDisabledReason = ValueOf<typeof ENDPOINT_DISABLED_REASONS>;

/** Booleans are stored as 0 and 1 on both engines. */
export const FLAG_VALUES = [0, 1] as const;

// Menu maps (decisions.md §13)
export const EXPLORATION_STATES = ['queued', 'running', 'done', 'failed', 'stopped'] as const;
export type ExplorationState = ValueOf<typeof EXPLORATION_STATES>;

/** A recording of a cloud device (decisions.md §18): `recording` while it holds the device, then `stopped`. */
export const RECORDING_STATES = ['recording', 'stopped'] as const;
export type RecordingState = ValueOf<typeof RECORDING_STATES>;
export const MAP_ACTION_TYPES = ['tap', 'back'] as const;
export type MapActionType = ValueOf<typeof MAP_ACTION_TYPES>;
// Authoring sessions (decisions.md §13)
export const AUTHORING_STATES = ['working', 'waiting_for_answer', 'done', 'failed', 'stopped'] as const;
export type AuthoringState = ValueOf<typeof AUTHORING_STATES>;
export const AUTHORING_ROLES = ['agent', 'user', 'tool'] as const;
export type AuthoringRole = ValueOf<typeof AUTHORING_ROLES>;
/** What a schedule runs on (issue 20): one cloud device, or every cloud device of a cloud group. */
export const SCHEDULE_TARGETS = ['device', 'group'] as const;
/**
 * An occurrence's outcome. `pending` lives only between claiming the occurrence and starting its
 * run (milliseconds); reads never show it. The others are the contract's (app-api.md).
 */
export const OCCURRENCE_OUTCOMES = ['pending', 'started', 'skipped', 'missed'] as const;

/** An API key as the contract writes it: `svc_` + 48 lowercase hex. Read by the key gate and by the settings (SVC_API_KEY). */
export const KEY_PATTERN = /^svc_[0-9a-f]{48}$/;
