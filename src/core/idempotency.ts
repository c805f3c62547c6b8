// What the HTTP edge asks of the idempotent-request store (decisions.md §19): the store
// (modules/idempotency) owns the table and the rules, the edge (http/idempotency.ts) reads the
// header and answers. Declared here so neither imports the other.

/** A request in flight that holds its key: only its holder keeps or releases it. */
export interface IdempotencyClaim {
  userId: number;
  keyHash: string;
  token: string;
}

/** A kept success: replayed as it was sent. */
export interface KeptAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

export type IdempotencyOutcome =
  /** First with this key (or the earlier claim lapsed, or its answer expired): process it. */
  | { kind: 'claimed'; claim: IdempotencyClaim }
  /** The same request succeeded before: answer what it answered. */
  | { kind: 'replay'; answer: KeptAnswer }
  /** The same key is held by a request still being processed. */
  | { kind: 'in_use' }
  /** The key was used with another method, path or body. */
  | { kind: 'reused' };

export interface IdempotencyStore {
  begin(userId: number, key: string, fingerprint: string): Promise<IdempotencyOutcome>;
  /** Keeps the claim alive while its request runs (a dead process's claim lapses). */
  renew(claim: IdempotencyClaim): Promise<void>;
  /** Keeps a success for replay; false when the claim was lost meanwhile. */
  keep(claim: IdempotencyClaim, answer: KeptAnswer): Promise<boolean>;
  /** Frees the key: the answer was not a success, so a retry is processed afresh. */
  release(claim: IdempotencyClaim): Promise<void>;
}

/** How long a claim holds without renewal: a process that died frees its keys after this. */
export const IDEMPOTENCY_CLAIM_MS = 60_000;
/** How long a success is kept for replay. */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60_000;
