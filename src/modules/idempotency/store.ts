// The idempotent-request store (decisions.md §19): one row per account and key, owned here.
// A claim is one statement on both engines: insert the row, or take over a row that is no
// longer live (a claim whose process died, or an answer past its 24 h), and count whether
// this statement won. Losers read the row to learn why: another request, the same request
// still in flight, or the same request already answered.
import type { Kysely } from 'kysely';
import {
  IDEMPOTENCY_CLAIM_MS, IDEMPOTENCY_KEEP_MS, type IdempotencyClaim, type IdempotencyOutcome, type IdempotencyStore, type KeptAnswer,
} from '../../core/idempotency.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { decryptSecret, encryptSecret, randomHex, sha256Hex } from '../../lib/crypto.js';

/** A row can vanish between a lost claim and its read (released, or swept): claim again, a few times. */
const CLAIM_ATTEMPTS = 3;

export class IdempotentRequests implements IdempotencyStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** Kept bodies are sealed with the server key: an answer can carry a secret (a new webhook's). */
    private readonly secretKey: Buffer,
  ) {}

  async begin(userId: number, key: string, fingerprint: string): Promise<IdempotencyOutcome> {
    const keyHash = sha256Hex(key);
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
      const now = this.clock.now();
      const claim = { userId, keyHash, token: randomHex(16) };
      const fresh = { fingerprint, claim_token: claim.token, status: null, content_type: null, body_sealed: null, expires_at: now + IDEMPOTENCY_CLAIM_MS, created_at: now };
      const result = await this.db
        .insertInto('idempotency_keys')
        .values({ user_id: userId, key_hash: keyHash, ...fresh })
        .onConflict((oc) => oc.columns(['user_id', 'key_hash']).doUpdateSet(fresh).where('idempotency_keys.expires_at', '<=', now))
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'claimed', claim };
      const row = await this.db
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'status', 'content_type', 'body_sealed'])
        .where('user_id', '=', userId)
        .where('key_hash', '=', keyHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (!row) continue;
      if (row.fingerprint !== fingerprint) return { kind: 'reused' };
      if (row.status === null || row.body_sealed === null) return { kind: 'in_use' };
      return { kind: 'replay', answer: { status: row.status, contentType: row.content_type, body: decryptSecret(row.body_sealed, this.secretKey) } };
    }
    return { kind: 'in_use' };
  }

  async renew(claim: IdempotencyClaim): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ expires_at: this.clock.now() + IDEMPOTENCY_CLAIM_MS })
      .where('user_id', '=', claim.userId)
      .where('key_hash', '=', claim.keyHash)
      .where('claim_token', '=', claim.token)
      .execute();
  }

  // Writes only the row this claim still holds: a lapsed claim taken over by another request is not.
  async keep(claim: IdempotencyClaim, answer: KeptAnswer): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ claim_token: null, status: answer.status, content_type: answer.contentType, body_sealed: encryptSecret(answer.body, this.secretKey), expires_at: this.clock.now() + IDEMPOTENCY_KEEP_MS })
      .where('user_id', '=', claim.userId)
      .where('key_hash', '=', claim.keyHash)
      .where('claim_token', '=', claim.token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('user_id', '=', claim.userId).where('key_hash', '=', claim.keyHash).where('claim_token', '=', claim.token).execute();
  }

  /** Deletes rows no longer live; a dead row is also taken over by the next claim of its key, so this only keeps the table small. */
  async sweepExpired(): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', this.clock.now()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
