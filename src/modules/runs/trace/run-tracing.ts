// A run's trace from start to end (decisions.md §17). The executor begins it before the run
// starts and, when the run has ended, makes its end ready (the last frame and UI tree of a
// failed run) for the job to store in the transaction that ends the run (or to delete, under
// RUN_TRACE=failures when the run finished): a run read as ended has its whole trace. Block steps record through
// the recorder it hands out. A Python run's device calls reach the device RPC, possibly in
// another thread or process, which takes the trace over from the database (recorderFor) and
// keeps its recorder while the run calls, closing it once the run has been quiet for a while.
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Db } from '../../../db/database.js';
import { inSavepoint } from '../../../db/savepoint.js';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import { messageOf } from '../../../lib/error-message.js';
import { type ActionTracer, type DeviceDriver, type DrawnFrames, frameOfScreen, redactText, SECRET_TEXT, type TraceBatch, TRACE_FRAME, TraceRecorder, type TraceWriter, withCenter } from '../../devices/index.js';
import type { RunEndState, RunOutcome } from '../outcome.js';
import type { RunTraceSettings } from './settings.js';
import { createTrace, deleteTrace, KnownPictures, StepInserts, storeTraceEnd, type TraceEnd, traceOfRun, traceWriter, type TraceStoreShared } from './store.js';

/** A field whose text the final UI tree never shows, as the authoring agent never reads it. */
const isPasswordField = (e: { resource_id: string; content_desc: string; element_id: string; editable: boolean }) => e.editable && /pass(word|code)|pin_?code/i.test(`${e.resource_id} ${e.content_desc} ${e.element_id}`);

/** An RPC-side recorder unused this long is flushed and let go (its run has ended, or moved to another process). */
const IDLE_MS = 60_000;

export interface TraceLog {
  warn(object: object, message: string): void;
}

export interface RunTrace {
  /**
   * The trace's row is being written beside the run's first steps, off its path: this answers
   * its history record's id once written, undefined when it could not be (the run goes on
   * untraced). A Python run waits for it: the device RPC takes the trace over from that row.
   */
  stored: Promise<number | undefined>;
  recorder: TraceRecorder;
}

/** Writes through the trace's writer once its row is stored; nothing when it could not be. */
function onceStored(stored: Promise<number | undefined>, writerOf: (executionPk: number) => TraceWriter): TraceWriter {
  const writer = stored.then((pk) => (pk === undefined ? undefined : writerOf(pk)));
  return {
    write: async (batch) => void (await (await writer)?.write(batch)),
    note: async (message) => void (await (await writer)?.note(message)),
  };
}

/** A trace's end, made ready when its run ended, stored with the run's end. */
export interface TraceEnding {
  /** In the transaction that ends the run: `state` as the run records it (a stop may have turned it), `endedAt` its end. Never throws. */
  store(trx: Transaction<Database>, state: RunEndState, endedAt: number): Promise<void>;
}

interface TracedRun {
  id: number;
  user_id: number;
}

export class RunTracing {
  /** The device RPC's recorders, by run id. */
  private readonly live = new Map<number, Promise<TraceRecorder | undefined>>();
  private readonly holder = randomBytes(6).toString('hex');
  /** Frames of `sim` screens by key, shared by this process's recorders (TraceRecorder's drawnFrames). */
  private readonly drawnFrames: DrawnFrames = new Map();
  /** What this process's writers share (store.ts): the pictures they know are stored, batch inserts compiled once per size. */
  private readonly shared: TraceStoreShared;

  constructor(
    private readonly deps: { db: Db; clock: Clock; settings: RunTraceSettings; log?: TraceLog },
  ) {
    this.shared = { db: deps.db.kysely, known: new KnownPictures(), inserts: new StepInserts() };
  }

  get settings(): RunTraceSettings {
    return this.deps.settings;
  }

  private recorder(runId: number, stored: Promise<number | undefined>, from: { startedMs: number; nextSeq?: number; keptFrames?: string[]; framesCapped?: boolean }): TraceRecorder {
    return new TraceRecorder({
      writer: onceStored(stored, (executionPk) => traceWriter(this.deps.db.kysely, executionPk, () => this.deps.clock.now(), this.shared.known, this.shared.inserts)),
      maxFrames: this.deps.settings.maxFrames,
      drawnFrames: this.drawnFrames,
      ...from,
      onProblem: (message) => this.deps.log?.warn({ run_id: runId, holder: this.holder }, `run trace: ${message}`),
    });
  }

  /**
   * Starts the run's trace (none under RUN_TRACE=off). Its row is written while the run goes
   * on, not before it: the recorder's first batch waits for it instead of the run's first
   * step. A failure to write it never stops the run.
   */
  begin(run: TracedRun, executionPk: number, driver?: DeviceDriver): RunTrace | undefined {
    if (this.deps.settings.mode === 'off') return undefined;
    const startedMs = Date.now();
    const stored = (async () => {
      // Element bounds are in the screen's pixels; a viewer needs them to draw on scaled frames.
      // On `sim` the size is fixed: asking would read the device's whole state for it.
      const screen = driver?.fixedScreenSize ?? (await driver?.screenSize().catch(() => undefined));
      await createTrace(this.deps.db.kysely, { executionPk, userId: run.user_id, runId: run.id, startedMs, now: this.deps.clock.now(), screen });
      return executionPk;
    })().catch((error: unknown) => {
      this.deps.log?.warn({ run_id: run.id, reason: messageOf(error) }, 'run trace: could not be started; the run goes on untraced');
      return undefined;
    });
    return { stored, recorder: this.recorder(run.id, stored, { startedMs }) };
  }

  /**
   * The run has ended: what the trace still holds, made ready to be stored with the run's end
   * (`store`, in the transaction that ends the run), and for a failed run its last screen and
   * UI tree, taken now while the run still holds its device. `deviceCallsElsewhere`: a Python
   * run, whose device calls the device RPC recorded, possibly in another thread or process.
   * Never fails: a trace that cannot be ended is said in the log, and the run ends untouched.
   */
  async ending(runId: number, trace: RunTrace, outcome: RunOutcome | null, driver: DeviceDriver | null, deviceCallsElsewhere = false): Promise<TraceEnding | undefined> {
    try {
      const rpcSide = await this.live.get(runId);
      this.live.delete(runId);
      await rpcSide?.flush();
      const executionPk = await trace.stored;
      if (executionPk === undefined) return undefined;
      // Text the run typed as secret is hidden in the last UI tree by the recorders that saw it
      // typed. When those are not here (the device RPC of another thread or process), what the
      // run typed cannot be told from what the app showed: every field's content is hidden.
      const hideFields = deviceCallsElsewhere && rpcSide === undefined;
      const last = outcome?.state === 'failed' && driver ? await this.lastLook(driver, [trace.recorder, rpcSide], hideFields) : {};
      const batch = await this.writeAhead(executionPk, await trace.recorder.drain(), outcome);
      return { store: (trx, state, endedAt) => this.storeEnd(trx, runId, executionPk, batch, state, { endedAt, ...(state === 'failed' ? last : {}) }) };
    } catch (error) {
      this.deps.log?.warn({ run_id: runId, reason: messageOf(error) }, 'run trace: could not be finished');
      return undefined;
    }
  }

  /**
   * On PostgreSQL the last batch is written now, in a transaction of its own on a connection of
   * its own, beside the run's last log lines, and only the end waits for the end's transaction
   * (which holds the run's row): in that transaction its statements went one after another, and
   * whole cloud runs took about 2–3 ms longer. SQLite's one connection does one thing at a
   * time, where a transaction of its own only adds its cost. Answers what is left for the end;
   * a batch that could not be written is left whole, tried again and noted there.
   */
  private async writeAhead(executionPk: number, batch: TraceBatch, outcome: RunOutcome | null): Promise<TraceBatch> {
    const deletedAtEnd = this.deps.settings.mode === 'failures' && outcome?.state === 'finished';
    if (this.deps.db.dialect !== 'postgres' || batch.steps.length === 0 || deletedAtEnd) return batch;
    try {
      await traceWriter(this.deps.db.kysely, executionPk, () => this.deps.clock.now(), this.shared.known, this.shared.inserts).write(batch);
      return { steps: [], frames: [], framesCapped: batch.framesCapped };
    } catch {
      return batch;
    }
  }

  /** As `ending`, stored in a transaction of its own: for a run that never reached its end transaction. */
  async finish(runId: number, trace: RunTrace, outcome: RunOutcome | null, driver: DeviceDriver | null, deviceCallsElsewhere = false): Promise<void> {
    const ending = await this.ending(runId, trace, outcome, driver, deviceCallsElsewhere);
    if (ending) await this.deps.db.kysely.transaction().execute((trx) => ending.store(trx, outcome?.state ?? 'failed', this.deps.clock.now()));
  }

  /** Kept, or deleted under RUN_TRACE=failures when the run finished; in the run's end transaction, where it fails alone. */
  private async storeEnd(trx: Transaction<Database>, runId: number, executionPk: number, batch: TraceBatch, state: RunEndState, end: TraceEnd): Promise<void> {
    let problem: string | undefined;
    try {
      if (this.deps.settings.mode === 'failures' && state === 'finished') await inSavepoint(trx, 'trace_end', () => deleteTrace(trx, executionPk));
      else problem = await storeTraceEnd(trx, this.shared, executionPk, batch, end);
    } catch (error) {
      problem = messageOf(error);
    }
    if (problem !== undefined) this.deps.log?.warn({ run_id: runId, reason: problem }, 'run trace: could not be finished');
  }

  /** The screen and the UI tree when a failed run ended; whatever the device can still give. */
  private async lastLook(driver: DeviceDriver, recorders: (TraceRecorder | undefined)[], hideFields: boolean) {
    const [shot, tree] = await Promise.allSettled([driver.screenshot(TRACE_FRAME), driver.uiTree()]);
    const hide = (text: string) => recorders.reduce((out, r) => (r ? r.secrets.hide(out) : out), redactText(text));
    return {
      finalFrame: shot.status === 'fulfilled' ? await frameOfScreen(shot.value.data) : undefined,
      finalUiTree: tree.status === 'fulfilled' ? tree.value.map((e) => ({ ...withCenter(e), text: isPasswordField(e) || (hideFields && e.editable && e.text !== '') ? SECRET_TEXT : hide(e.text) })) : undefined,
    };
  }

  /** The device RPC's recorder for a run that keeps a trace; undefined when it keeps none. */
  recorderFor(runId: number): Promise<ActionTracer | undefined> {
    if (this.deps.settings.mode === 'off') return Promise.resolve(undefined);
    this.letIdleGo();
    let found = this.live.get(runId);
    if (!found) {
      found = (async () => {
        const trace = await traceOfRun(this.deps.db.kysely, runId);
        if (!trace || trace.ended) return undefined;
        return this.recorder(runId, Promise.resolve(trace.executionPk), trace);
      })().catch((error: unknown) => {
        this.deps.log?.warn({ run_id: runId, reason: messageOf(error) }, 'run trace: could not be taken over; these calls go untraced');
        return undefined;
      });
      this.live.set(runId, found);
    }
    return found;
  }

  private letIdleGo(): void {
    const now = Date.now();
    for (const [runId, pending] of this.live) {
      void pending.then((recorder) => {
        if (recorder && now - recorder.lastUsed < IDLE_MS) return;
        if (this.live.get(runId) !== pending) return;
        this.live.delete(runId);
        return recorder?.flush();
      });
    }
  }

  /** Writes what every recorder holds; for the module's close. */
  async close(): Promise<void> {
    const pending = [...this.live.values()];
    this.live.clear();
    await Promise.all(pending.map(async (p) => (await p)?.flush()));
  }
}
