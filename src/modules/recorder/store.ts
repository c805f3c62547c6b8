// The recorder's tables (migration 0028): recordings and their steps, each step's body as JSON
// and its frame as JPEG bytes. Every read filters by the owner, so another account's recording
// is simply not found. The only writer of `recordings` and `recording_steps`.
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import { NotFoundError } from '../../core/errors.js';
import type { Database } from '../../db/schema.js';
import type { RecordingsTable } from '../../db/schema-recorder.js';
import { isDeviceLive } from '../devices/index.js';
import type { RecordedStep, SavedMacro } from './schemas.js';

export type RecordingRow = Selectable<RecordingsTable>;
/** A step as stored: the answer less its frame_url, which is made from the ids. */
export type StoredStep = Omit<RecordedStep, 'frame_url'>;

type Handle = Kysely<Database> | Transaction<Database>;

export const recordingNotFound = () => new NotFoundError('No recording with this id.');
export const stepNotFound = () => new NotFoundError('No step with this seq in the recording.');

export class RecordingStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Notes a macro saved from the recording: written only over the list it read, so two saves at once both stay. */
  async addSaved(id: string, macro: SavedMacro): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const row = await this.db.selectFrom('recordings').select('saved').where('id', '=', id).executeTakeFirst();
      if (!row) return;
      const saved = (JSON.parse(row.saved) as SavedMacro[]).filter((m) => m.id !== macro.id);
      const written = await this.db.updateTable('recordings').set({ saved: JSON.stringify([...saved, macro]) }).where('id', '=', id).where('saved', '=', row.saved).executeTakeFirst();
      if (Number(written.numUpdatedRows) === 1) return;
    }
  }

  async insert(trx: Handle, row: Insertable<RecordingsTable>): Promise<void> {
    await trx.insertInto('recordings').values(row).execute();
  }

  /** The caller's recording; one of a device whose deletion is under way is already gone, as the device is. */
  async find(userId: number, id: string): Promise<RecordingRow> {
    const row = await this.db.selectFrom('recordings').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row || !(await isDeviceLive(this.db, userId, row.device_id))) throw recordingNotFound();
    return row;
  }

  /** The device's newest recording in state `recording`, or null. */
  async activeOn(userId: number, deviceId: number): Promise<RecordingRow | null> {
    const row = await this.db
      .selectFrom('recordings')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('user_id', '=', userId)
      .where('state', '=', 'recording')
      .orderBy('started_at', 'desc')
      .executeTakeFirst();
    return row ?? null;
  }

  /** Moves the recording to `stopped` (once); answers the row as it is afterwards. */
  async stop(id: string, now: number): Promise<void> {
    await this.db.updateTable('recordings').set({ state: 'stopped', ended_at: now }).where('id', '=', id).where('state', '=', 'recording').execute();
  }

  async extend(id: string, expiresAt: number): Promise<void> {
    await this.db.updateTable('recordings').set({ expires_at: expiresAt }).where('id', '=', id).where('state', '=', 'recording').execute();
  }

  /** The next seq, taken atomically. */
  async takeSeq(id: string): Promise<number> {
    const row = await this.db
      .updateTable('recordings')
      .set((eb) => ({ next_seq: eb('next_seq', '+', 1) }))
      .where('id', '=', id)
      .returning('next_seq')
      .executeTakeFirstOrThrow();
    return row.next_seq - 1;
  }

  async addStep(recordingId: string, step: StoredStep, frame: Buffer | null, now: number): Promise<void> {
    await this.db.insertInto('recording_steps').values({ recording_id: recordingId, seq: step.seq, body: JSON.stringify(step), frame, created_at: now }).execute();
  }

  async steps(recordingId: string): Promise<StoredStep[]> {
    const rows = await this.db.selectFrom('recording_steps').select(['body']).where('recording_id', '=', recordingId).orderBy('seq').execute();
    return rows.map((row) => JSON.parse(row.body) as StoredStep);
  }

  async step(recordingId: string, seq: number): Promise<StoredStep> {
    const row = await this.db.selectFrom('recording_steps').select(['body']).where('recording_id', '=', recordingId).where('seq', '=', seq).executeTakeFirst();
    if (!row) throw stepNotFound();
    return JSON.parse(row.body) as StoredStep;
  }

  async lastStep(recordingId: string): Promise<StoredStep | null> {
    const row = await this.db.selectFrom('recording_steps').select(['body']).where('recording_id', '=', recordingId).orderBy('seq', 'desc').executeTakeFirst();
    return row ? (JSON.parse(row.body) as StoredStep) : null;
  }

  async replaceStep(recordingId: string, step: StoredStep): Promise<void> {
    await this.db.updateTable('recording_steps').set({ body: JSON.stringify(step) }).where('recording_id', '=', recordingId).where('seq', '=', step.seq).execute();
  }

  async deleteStep(recordingId: string, seq: number): Promise<void> {
    const result = await this.db.deleteFrom('recording_steps').where('recording_id', '=', recordingId).where('seq', '=', seq).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw stepNotFound();
  }

  async frame(recordingId: string, seq: number): Promise<Buffer | null> {
    const row = await this.db.selectFrom('recording_steps').select(['frame']).where('recording_id', '=', recordingId).where('seq', '=', seq).executeTakeFirst();
    if (!row) throw stepNotFound();
    return row.frame === null ? null : Buffer.from(row.frame);
  }
}
