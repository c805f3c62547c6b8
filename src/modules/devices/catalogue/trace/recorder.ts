// Records a run's device actions as trace steps (decisions.md §17), once, for every surface
// that runs catalogue actions for a run (the device RPC behind the Python SDK, block steps).
// What stays true:
// - the action itself is never slowed by storage: steps and frames are queued and written in
//   batches by a timer; only taking the "before" picture (and, when the next action comes
//   before the screen settled, finishing the previous "after" one) lies on its path, and on
//   `sim` not even that: the input names the screen it found, drawn later and only when new;
// - a failed write never fails the action or the run: it is noted in the trace instead;
// - frames are looked at in the order they were taken, so "equal to the previous one" holds.
import { createHash } from 'node:crypto';
import { messageOf } from '../../../../lib/error-message.js';
import type { DeviceDriver } from '../../hosts/types.js';
import type { ActionEnv } from '../env.js';
import { type DrawnFrames, FrameAdmission, type FrameRef } from './frame-admission.js';
import { FrameBook, TRACE_FRAME } from './frames.js';
import { maskArgs, TypedSecrets } from './mask.js';
import { elementOf, errorOf } from './step-outcome.js';
import { BoundMethods, StepFrames } from './step-frames.js';
import type { StepCall, TraceBatch, TraceStep, TraceWriter } from './step.js';

/** The "after" frame: first look this long after the action, then until two looks agree, at most SETTLE_MAX_MS. */
const FIRST_LOOK_MS = 150;
const SETTLE_POLL_MS = 200;
const SETTLE_MAX_MS = 1000;
const FLUSH_MS = 250;
const FLUSH_STEPS = 200;

export interface RecorderOptions {
  writer: TraceWriter;
  /** Wall-clock ms when the run's recording began: `at_ms` counts from here. */
  startedMs: number;
  /** RUN_TRACE_MAX_FRAMES */
  maxFrames: number;
  /** Where a recorder taking over a trace (another process's device RPC) goes on. */
  nextSeq?: number;
  keptFrames?: string[];
  framesCapped?: boolean;
  /** A write that failed, for the operator's log. */
  onProblem?: (message: string) => void;
  /**
   * Frames drawn from undrawn screens (`sim`) by their key, shared by the recorders of one
   * owner so that a screen drawn for one run is not drawn again for the next: a key names
   * pixels, whichever device or run showed them. Kept to 256 entries.
   */
  drawnFrames?: DrawnFrames;
}

/** Runs one action for a run and records it. */
export interface ActionTracer {
  step<T>(call: StepCall, env: ActionEnv, act: (env: ActionEnv) => Promise<T>): Promise<T>;
}

/** Runs `act` as a traced step when the run keeps a trace, else as it is. */
export const tracedStep = <T>(tracer: ActionTracer | undefined, call: StepCall, env: ActionEnv, act: (env: ActionEnv) => Promise<T>): Promise<T> =>
  tracer ? tracer.step(call, env, act) : act(env);

/** The previous step's pending "after" picture. */
interface AfterSlot {
  fill(frame: FrameRef): void;
  hurry(): void;
  /** The background's first look, FIRST_LOOK_MS after the action (the recorder's one timer calls it). */
  firstLook(): void;
  driver: DeviceDriver;
  /** The step it belongs to. */
  seq: number;
}

type PendingStep = { step: TraceStep; before?: FrameRef; after?: FrameRef };

/** A look at the screen: `same` is equal for two looks at the same picture; `keep` admits it as a frame. */
interface Glance {
  same: string;
  keep(): FrameRef;
}

export class TraceRecorder implements ActionTracer {
  private seq: number;
  private readonly book: FrameBook;
  private queue: PendingStep[] = [];
  private readonly admission: FrameAdmission;
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private after: AfterSlot | null = null;
  /**
   * One timer for every step's first look, re-armed (`refresh`) by each step that made an
   * input: a timer made and cleared per step cost about 5 µs a step in a cloud run (Node
   * creates and drops a timer list for the length each time), a refresh nothing measurable.
   */
  private firstLookTimer: NodeJS.Timeout | undefined;
  private readonly bound = new BoundMethods();
  /** What the run typed as secret: hidden wherever a later step would show it. */
  readonly secrets = new TypedSecrets();
  /** When the last step began (wall clock): a recorder nobody used for long can be closed. */
  lastUsed = Date.now();

  constructor(private readonly options: RecorderOptions) {
    this.seq = options.nextSeq ?? 1;
    this.book = new FrameBook(options.maxFrames, options.keptFrames, options.framesCapped);
    this.admission = new FrameAdmission(this.book, options.drawnFrames ?? new Map(), (message) => this.problem(message));
  }

  async step<T>(call: StepCall, env: ActionEnv, act: (env: ActionEnv) => Promise<T>): Promise<T> {
    // The previous step's "after" picture must not show this step's doing.
    this.hurryAfter();
    this.lastUsed = Date.now();
    const seq = this.seq++;
    this.secrets.remember(call.args);
    const atMs = Math.max(0, Date.now() - this.options.startedMs);
    const started = performance.now();
    const frames = new StepFrames(env.driver, this.bound, (driver) => this.shoot(driver), (screen) => {
      const ref = this.admission.undrawn(screen);
      // Found after the previous action: it is that action's "after" if none was taken yet.
      this.after?.fill(ref);
      return ref;
    });
    const interrupts: string[] = [];
    const traced: ActionEnv = {
      ...env,
      driver: frames.driver,
      log: (line) => {
        const handled = /^handled interrupt: (.*)$/.exec(line);
        if (handled) {
          interrupts.push(handled[1]!);
          frames.rearm();
        }
        env.log?.(line);
      },
    };
    let answer: T | undefined;
    let failure: { error: unknown } | undefined;
    try {
      answer = await act(traced);
    } catch (error) {
      failure = { error };
    }
    frames.done();
    const step: TraceStep = { seq, at_ms: atMs, duration_ms: Math.round(performance.now() - started), action: call.action, args: maskArgs(call.args), outcome: failure ? 'error' : 'ok', interrupts };
    const element = failure ? undefined : elementOf(answer);
    if (element) step.element = element;
    if (failure) step.error = errorOf(failure.error);
    if (call.blockPath !== undefined) step.block_path = call.blockPath;
    // An action that gave up before acting shows the screen when it gave up.
    const before = frames.before ?? (failure ? (await this.shoot(env.driver)).ref : undefined);
    const after = frames.inputStarted ? this.startAfter(env.driver, seq) : undefined;
    this.enqueue({ step: this.secrets.hideIn(step), before, after });
    if (failure) throw failure.error;
    return answer as T;
  }

  /** Writes what is queued and waits for every write; the recorder can go on afterwards. */
  async flush(): Promise<void> {
    await this.settleAfter();
    this.stopTimers();
    await this.writeQueued();
  }

  /**
   * The run has ended: answers what is not written yet, once every earlier write is done, for
   * the caller to store with the run's end in the end's own transaction. Nothing is recorded after.
   */
  async drain(): Promise<TraceBatch> {
    await this.settleAfter();
    this.stopTimers();
    const queued = this.queue;
    this.queue = [];
    await this.writing;
    const steps = await this.assemble(queued);
    return { steps, frames: this.book.take(), framesCapped: this.book.capped };
  }

  private stopTimers(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    clearTimeout(this.firstLookTimer);
    this.firstLookTimer = undefined;
  }

  private problem(message: string): void {
    this.options.onProblem?.(message);
  }

  /** Takes a picture now; its frame id follows once it has been compared and admitted. */
  private async shoot(driver: DeviceDriver): Promise<{ ref: FrameRef }> {
    try {
      const ref = (await this.glance(driver)).keep();
      // Taken after the previous action: it is that action's "after" if none was taken yet.
      this.after?.fill(ref);
      return { ref };
    } catch (error) {
      this.problem(`a frame could not be taken: ${messageOf(error)}`);
      return { ref: Promise.resolve(undefined) };
    }
  }

  /**
   * One look at the screen: what tells two looks apart, and the frame it becomes if kept. On
   * `sim` the screen's key, drawn only when kept and new; elsewhere a screenshot and its hash.
   */
  private async glance(driver: DeviceDriver): Promise<Glance> {
    if (driver.screenNow) {
      const screen = await driver.screenNow();
      if (screen.key !== null) return { same: screen.key, keep: () => this.admission.undrawn(screen) };
    }
    const shot = await driver.screenshot(TRACE_FRAME);
    return { same: createHash('sha1').update(shot.data).digest('hex'), keep: () => this.admission.file(shot.data) };
  }

  /**
   * The "after" picture, off the action's path: taken in the background once two looks agree
   * (at most 1 s after the action). When the next action begins first, the picture it takes
   * before acting is the screen after this one, so it serves as this step's "after" too and
   * no extra picture lies on the path; when the next action takes none (a wait, a read), the
   * background's next look (150 ms after the action, or its next poll) is the picture.
   */
  private startAfter(driver: DeviceDriver, seq: number): FrameRef {
    // Timers of two fixed lengths (Node keeps a list per length), not a loop of sleeps.
    let resolve!: (ref: FrameRef) => void;
    const ref: FrameRef = new Promise((done) => (resolve = done));
    const deadline = performance.now() + SETTLE_MAX_MS;
    let filled = false;
    let hurried = false;
    let looked = false;
    let last: Glance | null = null;
    let timer: NodeJS.Timeout | undefined;
    const fill = (frame: FrameRef) => {
      if (filled) return;
      filled = true;
      clearTimeout(timer);
      if (this.after === slot) this.after = null;
      resolve(frame);
    };
    // On a driver that counts its inputs (`sim`), a look after the next input began would show
    // that input's doing: the screen the input found is this step's "after" instead (asked
    // before the read and after it: the input may begin meanwhile).
    const inputs = driver.inputsBegun?.();
    const next = () => (inputs !== undefined && driver.inputsBegun!() > inputs ? driver.screenFoundByInput?.(inputs + 1) : undefined);
    const look = async () => {
      const early = next();
      if (early) return fill(this.admission.undrawn(early));
      const seen = await this.glance(driver);
      if (filled) return;
      const found = next();
      if (found) return fill(this.admission.undrawn(found));
      if (hurried || seen.same === last?.same || performance.now() + SETTLE_POLL_MS >= deadline) return fill(seen.keep());
      last = seen;
      timer = setTimeout(lookLater, SETTLE_POLL_MS);
    };
    const lookLater = () =>
      void look().catch((error: unknown) => {
        this.problem(`a frame could not be taken: ${messageOf(error)}`);
        fill(Promise.resolve(undefined));
      });
    const slot: AfterSlot = {
      fill,
      firstLook: () => {
        if (filled || looked) return;
        looked = true;
        lookLater();
      },
      driver,
      seq,
      hurry: () => {
        if (hurried || filled) return;
        hurried = true;
        // The next action is under way: the last look, if any; else the next capture, or (a
        // next action that captures none: a wait, a read) the one look the timer takes.
        if (last) fill(last.keep());
      },
    };
    // A slot still waiting here (its input's successor found no screen) loses the shared timer: it looks now.
    this.after?.firstLook();
    this.after = slot;
    if (this.firstLookTimer) this.firstLookTimer.refresh();
    else this.firstLookTimer = setTimeout(() => this.after?.firstLook(), FIRST_LOOK_MS);
    return ref;
  }

  /** A new step began: the previous step's "after" picture is taken now or by the next capture. */
  private hurryAfter(): void {
    this.after?.hurry();
  }

  /**
   * Takes the pending "after" picture at once (the run is ending). When it is the last step's
   * (the run ends right after an input), `sim` gives the screen the input left: nothing read.
   */
  private async settleAfter(): Promise<void> {
    const after = this.after;
    if (!after) return;
    after.hurry();
    const left = after.seq === this.seq - 1 ? after.driver.screenAfterLastInput?.() : undefined;
    after.fill(left ? this.admission.undrawn(left) : (await this.shoot(after.driver)).ref);
  }

  private enqueue(pending: PendingStep): void {
    this.queue.push(pending);
    if (this.queue.length >= FLUSH_STEPS) void this.writeQueued();
    else this.timer ??= setTimeout(() => void this.writeQueued(), FLUSH_MS);
  }

  /** The queued steps named their frames, in place (a copy of each step per batch cost more than the rest of the batch's assembly). */
  private async assemble(queued: PendingStep[]): Promise<TraceStep[]> {
    const steps: TraceStep[] = [];
    for (const { step, before, after } of queued) {
      const frameBefore = await before;
      const frameAfter = await after;
      if (frameBefore) step.frame_before = frameBefore;
      if (frameAfter) step.frame_after = frameAfter;
      steps.push(step);
    }
    return steps;
  }

  private writeQueued(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const queued = this.queue;
    this.queue = [];
    const write = async (): Promise<void> => {
      if (queued.length === 0) return;
      const steps = await this.assemble(queued);
      try {
        await this.options.writer.write({ steps, frames: this.book.take(), framesCapped: this.book.capped });
      } catch (error) {
        const message = `steps ${steps[0]!.seq} to ${steps.at(-1)!.seq} could not be stored: ${messageOf(error)}`;
        this.problem(message);
        await this.options.writer.note(message).catch(() => undefined);
      }
    };
    const written = this.writing.then(write, write);
    this.writing = written;
    return written;
  }
}
