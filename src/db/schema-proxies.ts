// Table types of proxies (migration 0005, modules/proxies): the account's proxies, which device
// or session uses which, the audit of revealed secrets, and the usage samples with their daily sums.
import type { Generated } from 'kysely';
import type { Gateway, ProxyCheckError, ProxyMode, ProxyScheme, ProxyStatus, SessionType } from '../core/values.js';

export interface ProxiesTable {
  id: Generated<number>;
  user_id: number;
  mode: ProxyMode;
  label: string | null;
  scheme: ProxyScheme;
  host: string;
  port: number;
  /** '' when the proxy has no username. */
  username: string;
  /** AES-256-GCM with SECRET_KEY (lib/crypto.ts); null when there is no password. */
  password_enc: string | null;
  session_type: SessionType;
  gateway: Gateway | null;
  /** JSON of the targeting object; null for plain proxies. */
  targeting: string | null;
  status: ProxyStatus;
  last_check_at: number | null;
  last_exit_ip: string | null;
  last_exit_country: string | null;
  last_exit_city: string | null;
  last_exit_asn: number | null;
  last_latency_ms: number | null;
  last_error: ProxyCheckError | null;
  created_at: number;
  updated_at: number;
}

export interface ProxyAssignmentsTable {
  id: Generated<number>;
  user_id: number;
  proxy_id: number;
  device_id: number;
  session_type: SessionType;
  session_id: string | null;
  active: number;
  created_at: number;
  ended_at: number | null;
}

export interface ProxySecretRevealsTable {
  id: Generated<number>;
  user_id: number;
  assignment_id: number;
  proxy_id: number;
  api_key_id: number | null;
  session_id: number | null;
  client_address: string | null;
  created_at: number;
}

export interface ProxyUsageSamplesTable {
  id: Generated<number>;
  user_id: number;
  proxy_id: number;
  device_id: number | null;
  bytes_up: number;
  bytes_down: number;
  at: number;
}

export interface ProxyUsageDailyTable {
  user_id: number;
  /** Unix ms of the UTC midnight that starts the day. */
  day: number;
  proxy_id: number;
  /** 0 for samples that named no device. */
  device_id: number;
  bytes_up: number;
  bytes_down: number;
}
