// Table types of the authoring agent (migration 0018), kept beside schema.ts so that file
// stays one screenful per area. Timestamps are Unix milliseconds, as everywhere.
import type { Generated } from 'kysely';
import type { AuthoringRole, AuthoringState } from '../core/values.js';

export interface AuthoringSessionsTable {
  id: Generated<number>;
  user_id: number;
  goal: string;
  device_id: number | null;
  macro_id: number | null;
  state: AuthoringState;
  state_message: string | null;
  question: string | null;
  question_call_id: string | null;
  /** JSON `[{path, content}]`. */
  files: string;
  /** JSON: the chat messages after the system prompt. */
  conversation: string;
  steps: Generated<number>;
  tokens_used: Generated<number>;
  credits_used: Generated<number>;
  worked_ms: Generated<number>;
  lease_id: string | null;
  locked_until: number | null;
  locked_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface AuthoringMessagesTable {
  id: Generated<number>;
  session_id: number;
  seq: number;
  role: AuthoringRole;
  text: string;
  at: number;
}

export interface CreditChargesTable {
  id: Generated<number>;
  user_id: number;
  session_id: number | null;
  credits: number;
  tokens: number;
  at: number;
}

export interface CreditAllowancesTable {
  user_id: number;
  monthly_limit: number;
  updated_at: number;
}
