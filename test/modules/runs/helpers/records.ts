// Run records written straight into the database, as the run routes will write them: the
// history record (status running) and the cloud run, so runner tests need no routes.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CloudRunState, Database } from '../../../../src/db/schema.js';

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
  args?: Record<string, unknown> | null;
  entryPath?: string | null;
  bundleSha?: string;
}

export async function insertCloudRun(db: Kysely<Database>, fields: CloudRunFields) {
  const now = Date.now();
  return db
    .insertInto('cloud_runs')
    .values({
      user_id: fields.userId, execution_id: fields.executionId ?? newExecutionId(), device_id: fields.deviceId, macro_id: fields.macroId, macro_kind: fields.macroKind ?? 'python',
      state: fields.state ?? 'running', state_message: null, args: fields.args ? JSON.stringify(fields.args) : null, entry_path: fields.entryPath ?? 'main.py',
      bundle_sha: fields.bundleSha ?? '0'.repeat(64), code_ref: null, token_hash: null, started_at: now, finished_at: null, locked_until: null, locked_by: null, created_at: now, updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
