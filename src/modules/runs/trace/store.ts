// Run traces in the database (migrations 0027, 0029): one row per traced run, its steps as
// JSON rows numbered by seq, the frames it shows by id, and each frame's JPEG once for every
// trace (named by its pixels, so the same screen in many runs is one picture). The only writer
// of the four tables; the recorder reaches it through a TraceWriter.
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { inSavepoint } from '../../../db/savepoint.js';
import { messageOf } from '../../../lib/error-message.js';
import type { Database } from '../../../db/schema.js';
import type { TraceBatch, TraceFrame, TraceStep, TraceWriter } from '../../devices/index.js';

type Db = Kysely<Database>;

/** The notes a trace keeps at most: the first failures say what went wrong. */
const MAX_NOTES = 20;

export async function createTrace(db: Db, row: { executionPk: number; userId: number; runId: number; startedMs: number; now: number; screen?: { width: number; height: number } }): Promise<void> {
  await db
    .insertInto('run_traces')
    .values({ execution_pk: row.executionPk, user_id: row.userId, run_id: row.runId, started_ms: row.startedMs, created_at: row.now, screen_width: row.screen?.width ?? null, screen_height: row.screen?.height ?? null })
    .onConflict((oc) => oc.column('execution_pk').doNothing())
    .execute();
}

/** How many picture ids a process remembers as stored; past it the memory starts afresh. */
const KNOWN_PICTURES_KEPT = 4096;

/**
 * Pictures this process has stored or seen stored, so that a batch showing only those asks the
 * database nothing before naming them. The sweep may delete one since: naming it then fails
 * on the foreign key, and the write's retry asks the database again.
 */
export class KnownPictures {
  private readonly ids = new Set<string>();

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(ids: string[]): void {
    if (this.ids.size + ids.length > KNOWN_PICTURES_KEPT) this.ids.clear();
    for (const id of ids) this.ids.add(id);
  }

  forget(ids: string[]): void {
    for (const id of ids) this.ids.delete(id);
  }
}

/** Batch sizes whose insert is kept compiled; a batch is at most 200 steps (the recorder's FLUSH_STEPS). */
const STEP_INSERTS_KEPT = 256;

/**
 * The insert of a batch's steps, compiled once per batch size (and database) and then only
 * given its values: building a 52-row insert through Kysely's query builder took about as long
 * as SQLite's insert itself. Shared by a process's writers, as KnownPictures is.
 */
export class StepInserts {
  private readonly byRows = new WeakMap<Db, Map<number, string>>();

  /** The statement and its parameters for these rows, in the order the statement names them. */
  of(db: Db, executionPk: number, steps: TraceStep[]): CompiledQuery {
    let compiled = this.byRows.get(db);
    if (!compiled) this.byRows.set(db, (compiled = new Map()));
    let text = compiled.get(steps.length);
    if (text === undefined) {
      const query = db.insertInto('run_trace_steps').values(steps.map(() => ({ execution_pk: 0, seq: 0, body: '' }))).compile();
      if (query.parameters.length !== steps.length * 3) throw new Error('the steps insert does not name three values a row');
      text = query.sql;
      if (compiled.size >= STEP_INSERTS_KEPT) compiled.clear();
      compiled.set(steps.length, text);
    }
    const parameters: unknown[] = [];
    for (const step of steps) parameters.push(executionPk, step.seq, JSON.stringify(step));
    return CompiledQuery.raw(text, parameters);
  }
}

/**
 * Says the trace shows these frames, storing each picture only when no trace has stored it
 * yet (migration 0029): a screen seen in an earlier run costs one small row, not its JPEG.
 * Pictures `known` to be stored are not looked for.
 */
async function insertFrames(db: Db, executionPk: number, frames: TraceFrame[], now: number, known?: KnownPictures): Promise<void> {
  if (frames.length === 0) return;
  const unique = [...new Map(frames.map((f) => [f.id, f])).values()];
  const unknown = known ? unique.filter((f) => !known.has(f.id)) : unique;
  const stored = new Set(unknown.length === 0 ? [] : (await db.selectFrom('run_trace_pictures').select('frame_id').where('frame_id', 'in', unknown.map((f) => f.id)).execute()).map((r) => r.frame_id));
  const missing = unknown.filter((f) => !stored.has(f.id));
  if (missing.length > 0) {
    await db
      .insertInto('run_trace_pictures')
      .values(missing.map((f) => ({ frame_id: f.id, content: f.jpeg, size_bytes: f.jpeg.length, created_at: now })))
      .onConflict((oc) => oc.column('frame_id').doNothing())
      .execute();
  }
  // On PostgreSQL the foreign key locks each picture against the sweep until this commits;
  // one the sweep deleted in between fails this insert, and the writer tries once more.
  await db
    .insertInto('run_trace_frames')
    .values(unique.map((f) => ({ execution_pk: executionPk, frame_id: f.id })))
    .onConflict((oc) => oc.columns(['execution_pk', 'frame_id']).doNothing())
    .execute();
}

/** Runs a trace write, once more if it fails: a picture swept away mid-write is stored again by the retry. */
async function twice(write: (retry: boolean) => Promise<void>): Promise<void> {
  try {
    await write(false);
  } catch {
    await write(true);
  }
}

/** How a trace ends: when (the run's own end), and for a failed run the last frame and UI tree. */
export interface TraceEnd {
  endedAt: number;
  finalFrame?: TraceFrame;
  finalUiTree?: unknown[];
}

/** What a process's writers share: the database the inserts are compiled for, the pictures stored, the compiled inserts. */
export interface TraceStoreShared {
  db: Db;
  known: KnownPictures;
  inserts: StepInserts;
}

/** One batch in the caller's transaction: the frames it shows, its steps, and what it says of the trace (capped, and its end). */
async function storeBatch(trx: Db, shared: TraceStoreShared, executionPk: number, batch: TraceBatch, now: number, end?: TraceEnd): Promise<void> {
  await insertFrames(trx, executionPk, framesOf(batch, end), now, shared.known);
  if (batch.steps.length > 0) await trx.executeQuery(shared.inserts.of(shared.db, executionPk, batch.steps));
  if (batch.framesCapped || end) await trx.updateTable('run_traces').set({ ...(batch.framesCapped ? { frames_capped: 1 } : {}), ...(end ? endOf(end) : {}) }).where('execution_pk', '=', executionPk).execute();
}

/** The frames a batch shows, with a failed run's last one when it carries the end. */
const framesOf = (batch: TraceBatch, end?: TraceEnd) => (end?.finalFrame ? [...batch.frames, end.finalFrame] : batch.frames);

/** Adds a sentence to the trace's notes (a write that failed), up to MAX_NOTES. */
async function addNote(trx: Db, executionPk: number, message: string): Promise<void> {
  const row = await trx.selectFrom('run_traces').select('notes').where('execution_pk', '=', executionPk).executeTakeFirst();
  if (!row) return;
  const notes = JSON.parse(row.notes) as string[];
  if (notes.length >= MAX_NOTES) return;
  await trx.updateTable('run_traces').set({ notes: JSON.stringify([...notes, message]) }).where('execution_pk', '=', executionPk).execute();
}

/** The writer of one trace's batches while its run goes on, each batch in a transaction of its own. */
export function traceWriter(db: Db, executionPk: number, now: () => number, known = new KnownPictures(), inserts = new StepInserts()): TraceWriter {
  const shared = { db, known, inserts };
  return {
    async write(batch: TraceBatch) {
      const ids = framesOf(batch).map((f) => f.id);
      await twice(async (retry) => {
        if (retry) known.forget(ids);
        await db.transaction().execute((trx) => storeBatch(trx, shared, executionPk, batch, now()));
      });
      known.add(ids);
    },
    note: (message: string) => db.transaction().execute((trx) => addNote(trx, executionPk, message)),
  };
}

const endOf = (end: TraceEnd) => ({ ended_at: end.endedAt, final_frame: end.finalFrame?.id ?? null, final_ui_tree: end.finalUiTree ? JSON.stringify(end.finalUiTree) : null });

/**
 * The run has ended: its last batch and the trace's end, in the transaction that ends the run
 * (run-transitions.ts), so that a run read as ended has its whole trace. Each try is a
 * savepoint, so a failed write never fails the run's end: a picture swept mid-write is stored
 * again by a second try; when that fails too, the end is stored alone (its time and UI tree, no
 * pictures) and the trace says which steps were lost. Answers what went wrong, for the operator's log; nothing when all was stored.
 */
export async function storeTraceEnd(trx: Transaction<Database>, shared: TraceStoreShared, executionPk: number, batch: TraceBatch, end: TraceEnd): Promise<string | undefined> {
  const ids = framesOf(batch, end).map((f) => f.id);
  try {
    await twice(async (retry) => {
      if (retry) shared.known.forget(ids);
      await inSavepoint(trx, 'trace_end', () => storeBatch(trx, shared, executionPk, batch, end.endedAt, end));
    });
    shared.known.add(ids);
    return undefined;
  } catch (error) {
    const what = batch.steps.length > 0 ? `steps ${batch.steps[0]!.seq} to ${batch.steps.at(-1)!.seq}` : "the trace's end";
    const message = `${what} could not be stored: ${messageOf(error)}`;
    try {
      await inSavepoint(trx, 'trace_end', async () => {
        await trx.updateTable('run_traces').set(endOf({ ...end, finalFrame: undefined })).where('execution_pk', '=', executionPk).execute();
        await addNote(trx, executionPk, message);
      });
    } catch (alone) {
      return `${message}; nor its end: ${messageOf(alone)}`;
    }
    return message;
  }
}

/** Deletes a trace with its steps and the list of its frames (they cascade); the sweep deletes pictures no trace shows. */
export async function deleteTrace(db: Db, executionPk: number): Promise<void> {
  await db.deleteFrom('run_traces').where('execution_pk', '=', executionPk).execute();
}

/** Where a recorder in another process (the device RPC of a Python run) takes over the trace of a run. */
export async function traceOfRun(db: Db, runId: number) {
  const row = await db.selectFrom('run_traces').select(['execution_pk', 'started_ms', 'frames_capped', 'ended_at']).where('run_id', '=', runId).executeTakeFirst();
  if (!row) return undefined;
  const [last, frames] = await Promise.all([
    db.selectFrom('run_trace_steps').select((eb) => eb.fn.max('seq').as('seq')).where('execution_pk', '=', row.execution_pk).executeTakeFirst(),
    db.selectFrom('run_trace_frames').select('frame_id').where('execution_pk', '=', row.execution_pk).execute(),
  ]);
  return { executionPk: Number(row.execution_pk), startedMs: Number(row.started_ms), ended: row.ended_at !== null, framesCapped: row.frames_capped === 1, nextSeq: Number(last?.seq ?? 0) + 1, keptFrames: frames.map((f) => f.frame_id) };
}

export async function readTrace(db: Db, executionPk: number) {
  const row = await db.selectFrom('run_traces').select(['frames_capped', 'final_frame', 'final_ui_tree', 'notes', 'screen_width', 'screen_height']).where('execution_pk', '=', executionPk).executeTakeFirst();
  if (!row) return undefined;
  const steps = await db.selectFrom('run_trace_steps').select('body').where('execution_pk', '=', executionPk).orderBy('seq').execute();
  return {
    framesCapped: row.frames_capped === 1,
    screen: row.screen_width === null || row.screen_height === null ? undefined : { width: Number(row.screen_width), height: Number(row.screen_height) },
    finalFrame: row.final_frame,
    finalUiTree: row.final_ui_tree === null ? null : (JSON.parse(row.final_ui_tree) as unknown[]),
    notes: JSON.parse(row.notes) as string[],
    steps: steps.map((s) => JSON.parse(s.body) as TraceStep),
  };
}

export async function readFrame(db: Db, executionPk: number, frameId: string): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('run_trace_frames as f')
    .innerJoin('run_trace_pictures as p', 'p.frame_id', 'f.frame_id')
    .select('p.content')
    .where('f.execution_pk', '=', executionPk)
    .where('f.frame_id', '=', frameId)
    .executeTakeFirst();
  return row ? Buffer.from(row.content) : undefined;
}

/** Every frame of a trace by id, for the self-contained HTML page. */
export async function readFrames(db: Db, executionPk: number): Promise<Map<string, Buffer>> {
  const rows = await db.selectFrom('run_trace_frames as f').innerJoin('run_trace_pictures as p', 'p.frame_id', 'f.frame_id').select(['f.frame_id', 'p.content']).where('f.execution_pk', '=', executionPk).execute();
  return new Map(rows.map((r) => [r.frame_id, Buffer.from(r.content)]));
}

/** Deletes up to `limit` traces created before `before`; answers how many. */
export async function deleteTracesBefore(db: Db, before: number, limit: number): Promise<number> {
  const old = await db.selectFrom('run_traces').select('execution_pk').where('created_at', '<', before).orderBy('created_at').limit(limit).execute();
  if (old.length === 0) return 0;
  await db.deleteFrom('run_traces').where('execution_pk', 'in', old.map((r) => r.execution_pk)).execute();
  return old.length;
}

/**
 * Deletes up to `limit` pictures that no trace shows any more (their traces expired or were
 * deleted); answers how many. On PostgreSQL a writer that has just shown one again holds it
 * locked: the delete then waits and fails on the foreign key, and the caller stops the round.
 */
export async function deleteUnshownPictures(db: Db, limit: number): Promise<number> {
  const unshown = await db
    .selectFrom('run_trace_pictures as p')
    .select('p.frame_id')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('run_trace_frames as f').select('f.frame_id').whereRef('f.frame_id', '=', 'p.frame_id'))))
    .limit(limit)
    .execute();
  if (unshown.length === 0) return 0;
  await db.deleteFrom('run_trace_pictures').where('frame_id', 'in', unshown.map((r) => r.frame_id)).execute();
  return unshown.length;
}
