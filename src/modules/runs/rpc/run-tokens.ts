// The per-run token a Python run's `svc_device` calls carry (decisions.md §10). It is made
// when the run's process starts, lives only in that process's environment, and is stored as
// its SHA-256, never itself. It opens the device RPC for that run's device only, and only
// while the run is active; it is cleared when the run ends.
import type { Kysely } from 'kysely';
import type { CloudRunState, Database } from '../../../db/schema.js';
import { constantTimeEqual, randomHex, sha256Hex } from '../../../lib/crypto.js';

export const RUN_TOKEN_PATTERN = /^svr_[0-9a-f]{64}$/;

/** States in which a run's token opens the RPC: the process may be alive and meant to drive the device. */
export const TOKEN_STATES: readonly CloudRunState[] = ['launching', 'running'];

export const newRunToken = () => `svr_${randomHex(32)}`;

/** Makes the run's token and stores its hash; answers the token itself, for the run's environment only. */
export async function issueRunToken(db: Kysely<Database>, runId: number, now: number): Promise<string> {
  const token = newRunToken();
  const result = await db.updateTable('cloud_runs').set({ token_hash: sha256Hex(token), updated_at: now }).where('id', '=', runId).executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new Error(`no cloud run ${runId} to issue a token for`);
  return token;
}

export async function revokeRunToken(db: Kysely<Database>, runId: number, now: number): Promise<void> {
  await db.updateTable('cloud_runs').set({ token_hash: null, updated_at: now }).where('id', '=', runId).execute();
}

export interface TokenRun {
  id: number;
  user_id: number;
  execution_id: string;
  device_id: number;
  state: CloudRunState;
}

/** The run this token belongs to, whatever its state; undefined for anything else. */
export async function findRunByToken(db: Kysely<Database>, token: string): Promise<TokenRun | undefined> {
  if (!RUN_TOKEN_PATTERN.test(token)) return undefined;
  const hash = sha256Hex(token);
  const row = await db
    .selectFrom('cloud_runs')
    .select(['id', 'user_id', 'execution_id', 'device_id', 'state', 'token_hash'])
    .where('token_hash', '=', hash)
    .executeTakeFirst();
  // The look-up is by the hash (an index), which tells nothing about the token; the final
  // comparison is in constant time all the same, as for API keys.
  if (!row || row.token_hash === null || !constantTimeEqual(row.token_hash, hash)) return undefined;
  return { id: row.id, user_id: row.user_id, execution_id: row.execution_id, device_id: row.device_id, state: row.state };
}
