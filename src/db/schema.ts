// Table types for Kysely. Timestamps are Unix milliseconds (bigint on PostgreSQL, integer
// on SQLite) so comparisons and ordering behave the same on both engines; booleans are 0/1.
import type { Generated } from 'kysely';

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
  status: 'trialing' | 'active' | 'inactive';
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

export interface Database {
  users: UsersTable;
  subscriptions: SubscriptionsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
}
