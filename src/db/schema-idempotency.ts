// Table type of idempotent requests (migration 0026, modules/idempotency).

/** One account's `Idempotency-Key`: a claim in flight (`claim_token`) or a kept answer (`status`). */
export interface IdempotencyKeysTable {
  user_id: number;
  key_hash: string;
  fingerprint: string;
  claim_token: string | null;
  status: number | null;
  content_type: string | null;
  /** The answer's body, encrypted with the server key (it may hold a secret, e.g. a webhook's). */
  body_sealed: string | null;
  /** A claim: 60 s after its last renewal; a kept answer: 24 h after it was kept. */
  expires_at: number;
  created_at: number;
}
