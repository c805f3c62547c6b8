// Where template matching runs: a small pool of worker threads (piscina), one per process,
// sized to the cores (VISION_THREADS), shared by the API and the runs thread (decision 0025).
// The synchronous OpenCV part of one match takes tens of milliseconds; on the thread that
// answers requests it stalled every other request meanwhile. Here the calling thread only
// copies the two gray pictures to a pool thread and awaits the answer.
//
// The threads start at the first match (or `warm`), each loading OpenCV at its first task.
// The pictures are copied, not transferred: a caller may keep them (the template cache does).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { VisionUnavailableError } from './errors.js';
import type { GrayImage } from './gray-image.js';
import type { MatchAnswer, MatchTask } from './match-worker.js';
import type { MatchOptions, MatchTrace, TemplateMatch } from './template-match.js';
import { fromWire } from './wire-errors.js';

/** Runs matches somewhere (a pool's thread, or another thread's pool through a port) and answers them. */
export interface TemplateMatcher {
  match(screen: GrayImage, template: GrayImage, options: MatchOptions, trace?: MatchTrace): Promise<TemplateMatch[]>;
  /** The engine's state, where this process can see it (a pool; not another thread's pool behind a port). */
  readonly state?: EngineState;
}

/**
 * Whether an engine can answer without first loading: `idle` (nothing loaded yet: the first
 * request that needs it loads it), `loading`, `ready`, or `unavailable` (its last start failed;
 * the next request tries again).
 */
export type EngineState = 'idle' | 'loading' | 'ready' | 'unavailable';

/** VISION_THREADS's default: the cores, at most 4 (each thread holds its own OpenCV heap, tens of MB). */
export const defaultVisionThreads = () => Math.min(4, availableParallelism());

/** Adds a pool thread's trace to the caller's (which may already hold earlier work). */
export function addTrace(into: MatchTrace | undefined, from: MatchTrace): void {
  if (!into) return;
  Object.assign(into, { ...from, coarseMs: into.coarseMs + from.coarseMs, fineMs: into.fineMs + from.fineMs });
}

export class MatchPool implements TemplateMatcher {
  private pool: Piscina<MatchTask, MatchAnswer> | undefined;
  private warming: Promise<void> | undefined;
  private loaded = false;
  private failed = false;

  constructor(readonly threads: number) {}

  async match(screen: GrayImage, template: GrayImage, options: MatchOptions, trace?: MatchTrace): Promise<TemplateMatch[]> {
    const answer = await this.piscina().run({ screen, template, options });
    if ('error' in answer) {
      // A template it cannot use is an answer of a working engine; only OpenCV failing to load is not.
      const error = fromWire(answer.error);
      if (error instanceof VisionUnavailableError) this.failed = true;
      else this.loaded = true;
      throw error;
    }
    this.loaded = true;
    if (!('matches' in answer)) throw new VisionUnavailableError('opencv', 'the matching thread gave no answer');
    addTrace(trace, answer.trace);
    return answer.matches;
  }

  /** Starts the threads and loads OpenCV in each, in the background (after `listen`). */
  warm(): Promise<void> {
    this.warming ??= Promise.all(Array.from({ length: this.threads }, () => this.piscina().run({ warm: true }))).then((answers) => {
      const failed = answers.find((answer) => 'error' in answer);
      if (failed && 'error' in failed) {
        this.failed = true;
        throw fromWire(failed.error);
      }
      this.loaded = true;
    });
    return this.warming;
  }

  get state(): EngineState {
    if (this.loaded) return 'ready';
    if (this.failed) return 'unavailable';
    return this.pool ? 'loading' : 'idle';
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  private piscina(): Piscina<MatchTask, MatchAnswer> {
    this.pool ??= new Piscina({ filename: workerFile(), minThreads: this.threads, maxThreads: this.threads, idleTimeout: Number.POSITIVE_INFINITY });
    return this.pool;
  }
}

/** The pool thread's code, as JavaScript: beside this file when built (compiled or bundled: scripts/bundle-server.js), the built copy when this runs from TypeScript source (vitest). */
function workerFile(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  if (import.meta.url.endsWith('.js')) return join(here, 'match-worker.js');
  const at = here.lastIndexOf(`${sep}src${sep}`);
  const built = join(here.slice(0, at), 'dist', here.slice(at + 5), 'match-worker.js');
  if (!existsSync(built)) throw new VisionUnavailableError('opencv', `the matching thread's code is not built (${built}): run npm run build`);
  return built;
}

let shared: MatchPool | undefined;

/** This process's pool, made on first use with `threads` (serve passes VISION_THREADS; others take the default). */
export function sharedMatchPool(threads = defaultVisionThreads()): MatchPool {
  shared ??= new MatchPool(threads);
  return shared;
}
