// Run records written straight into the database, as the run routes will write them: the
// history record (status running) and the cloud run, so runner tests need no routes.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CloudRunState, Database } from '../../../../src/db/schema.js';
import { resolveRunArgs } from '../../../../src/modules/runs/arguments/profile-args.js';
import { bundleForMacro, pinRunBundle } from '../../../../src/modules/runs/executor/bundle.js';

export const newExecutionId = () => `cr_${randomBytes(12).toString('hex')}`;

export async function insertHistoryRecord(db: Kysely<Database>, userId: number, executionId: string, type: 'python' | 'block' = 'python', deviceId: number | null = null): Promise<number> {
  const now = Date.now();
  const row = await db
    .insertInto('executions')
    .values({
      user_id: userId, execution_id: executionId, status: 'running', macro_id: null, macro_name: 'test macro', device_id: deviceId, device_name: null, device_port: null, group_id: null,
      execution_type: type, started_at: now, ended_at: null, duration_ms: null, exit_code: null, error_message: null, proxy_exit_ip: null, proxy_country: null, created_at: now, updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface CloudRunFields {
  userId: number;
  deviceId: number;
  macroId: number;
  macroKind?: 'python' | 'block';
  state?: CloudRunState;
  executionId?: string;
  args?: Record<string, unknown>;
  entryPath?: string | null;
  bundleSha?: string;
}

export async function insertCloudRun(db: Kysely<Database>, fields: CloudRunFields) {
  const now = Date.now();
  return db
    .insertInto('cloud_runs')
    .values({
      user_id: fields.userId, execution_id: fields.executionId ?? newExecutionId(), device_id: fields.deviceId, macro_id: fields.macroId, macro_kind: fields.macroKind ?? 'python',
      state: fields.state ?? 'running', state_message: null, args: JSON.stringify(fields.args ?? {}), entry_path: fields.entryPath ?? 'main.py',
      bundle_sha: fields.bundleSha ?? '0'.repeat(64), code_ref: null, token_hash: null, started_at: now, finished_at: null, locked_until: null, locked_by: null, created_at: now, updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A launching cloud run of the caller's macro with its bundle pinned and its history record,
 * in one transaction, as the run route will create it.
 */
export async function createPinnedRun(db: Kysely<Database>, fields: { userId: number; deviceId: number; macroId: number; args?: Record<string, unknown> }) {
  const bundle = await bundleForMacro(db, fields.userId, fields.macroId);
  const device = await db.selectFrom('devices').select('profile_id').where('id', '=', fields.deviceId).where('user_id', '=', fields.userId).executeTakeFirst();
  const followedProfileId = device?.profile_id ?? null;
  const args = bundle.kind === 'python' ? await resolveRunArgs(db, { userId: fields.userId, macroId: fields.macroId, followedProfileId }, fields.args) : {};
  return db.transaction().execute(async (trx) => {
    const now = Date.now();
    const run = await trx
      .insertInto('cloud_runs')
      .values({
        user_id: fields.userId, execution_id: newExecutionId(), device_id: fields.deviceId, macro_id: fields.macroId, macro_kind: bundle.kind, state: 'launching', state_message: null,
        args: JSON.stringify(args), entry_path: bundle.entryPath, bundle_sha: bundle.bundleSha, code_ref: bundle.codeRef, token_hash: null,
        started_at: null, finished_at: null, locked_until: null, locked_by: null, created_at: now, updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await pinRunBundle(trx, run.id, bundle.content);
    await insertHistoryRecord(trx, fields.userId, run.execution_id, bundle.kind, fields.deviceId);
    return { run, bundle };
  });
}
