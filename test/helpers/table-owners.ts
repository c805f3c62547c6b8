// Who owns each table, for the table rules of test/architecture.test.ts (issue 17 §1, issue 34
// §2): the one module that writes it and reads it, and the few reads of another module's table
// that stay, each with its reason.

/**
 * Who writes each table (issue 17 §1): only this module, through its front door; other
 * modules read it through the owner's functions. One line per table: a new module adds its
 * tables here. `db` is the database layer's own bookkeeping.
 */
export const TABLE_OWNERS: Record<string, string> = {
  users: 'modules/accounts',
  sessions: 'modules/accounts',
  subscriptions: 'modules/billing',
  api_keys: 'modules/api-keys',
  macros: 'modules/macros',
  macro_setting_profiles: 'modules/profiles',
  code_snapshots: 'modules/code-sync',
  code_sync_state: 'modules/code-sync',
  code_blobs: 'modules/code-sync',
  marketplace_listings: 'modules/marketplace',
  marketplace_listing_tags: 'modules/marketplace',
  marketplace_versions: 'modules/marketplace',
  marketplace_reviews: 'modules/marketplace',
  marketplace_images: 'modules/marketplace',
  images: 'modules/images',
  device_groups: 'modules/devices',
  devices: 'modules/devices',
  device_placements: 'modules/devices',
  device_leases: 'modules/devices',
  sim_devices: 'modules/devices',
  apk_labels: 'modules/devices',
  executions: 'modules/executions',
  run_counts: 'modules/executions',
  run_log_batches: 'modules/run-logs',
  cloud_runs: 'modules/runs',
  cloud_run_bundles: 'modules/runs',
  run_traces: 'modules/runs',
  run_trace_steps: 'modules/runs',
  run_trace_frames: 'modules/runs',
  run_trace_pictures: 'modules/runs',
  recordings: 'modules/recorder',
  recording_steps: 'modules/recorder',
  events: 'modules/events',
  webhook_endpoints: 'modules/webhooks',
  webhook_deliveries: 'modules/webhooks',
  proxies: 'modules/proxies',
  proxy_assignments: 'modules/proxies',
  proxy_secret_reveals: 'modules/proxies',
  proxy_usage_samples: 'modules/proxies',
  proxy_usage_daily: 'modules/proxies',
  mcp_tokens: 'modules/mcp',
  map_explorations: 'modules/maps',
  menu_maps: 'modules/maps',
  menu_map_screens: 'modules/maps',
  menu_map_transitions: 'modules/maps',
  authoring_sessions: 'modules/authoring',
  authoring_messages: 'modules/authoring',
  credit_charges: 'modules/authoring',
  credit_allowances: 'modules/authoring',
  schedules: 'modules/scheduler',
  schedule_occurrences: 'modules/scheduler',
  named_locks: 'db',
  idempotency_keys: 'modules/idempotency',
};

/**
 * Reads of another module's table that stay (issue 34 §2), each with its reason in one line: a
 * file and table, or `file *` for every table it names. A join on a hot path stays only when
 * splitting it into the owners' calls measured slower (bench/joined-reads.js); everything else
 * asks the owner's front door.
 */
export const READ_EXCEPTIONS: Record<string, string> = {
  'src/db/locks.ts *': "the database layer's row locks: they name the row they lock, and read nothing of it",
  'src/modules/api-keys/key-resolver.ts users': 'a key-cache miss (every request on PostgreSQL without Redis) reads key, owner and subscription in one round trip; split, two (+6–13 % at p50)',
  'src/modules/api-keys/key-resolver.ts subscriptions': 'the same statement as users, for the same reason',
  'src/modules/webhooks/delivery-job.ts events': "each delivery attempt reads its claimed row, endpoint and the event's bytes in one statement; split, two (+9–15 % at p50 on PostgreSQL)",
};
