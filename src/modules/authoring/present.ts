// The authoring session as the API answers it (app-api.md): files only when done, the
// question only while waiting.
import type { Selectable } from 'kysely';
import type { AuthoringSessionsTable } from '../../db/schema-authoring.js';
import { toIso } from '../../lib/clock.js';
import type { AuthoringSessionRecord, ProjectFileValue } from './schemas.js';

export type SessionRow = Selectable<AuthoringSessionsTable>;

export const parseFiles = (text: string) => JSON.parse(text) as ProjectFileValue[];

export function presentSession(row: SessionRow): AuthoringSessionRecord {
  return {
    id: Number(row.id),
    goal: row.goal,
    device_id: row.device_id === null ? null : Number(row.device_id),
    macro_id: row.macro_id === null ? null : Number(row.macro_id),
    state: row.state,
    state_message: row.state_message,
    question: row.state === 'waiting_for_answer' ? row.question : null,
    files: row.state === 'done' ? parseFiles(row.files) : null,
    credits_used: Number(row.credits_used),
    created_at: toIso(Number(row.created_at)),
    updated_at: toIso(Number(row.updated_at)),
  };
}

/** A session still in the agent's hands (not ended). */
export const isLive = (state: SessionRow['state']) => state === 'working' || state === 'waiting_for_answer';
