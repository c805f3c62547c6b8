// Text read from pixels, offline: Tesseract (tesseract.js, WebAssembly, on a worker thread of
// its own) with the English LSTM model installed by `npm ci` (@tesseract.js-data/eng).
// What must stay true:
// - Nothing is fetched: `langPath` is the installed package's folder, the engine's code comes
//   from node_modules, and `cacheMethod: 'none'` keeps it from writing the model into the
//   working directory (its default) or reading a stale copy from there.
// - One long-lived worker per reader, started on first use (loading the model takes about a
//   second), reused by every call, one call at a time. A call that hangs past its time limit
//   ends the worker, and the next call starts a fresh one.
// - Two passes: the whole prepared screen in sparse-text mode, then, one by one, what that
//   left unread but looks like text (a lone letter, a huge clock; ocr-leftovers.ts).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type * as Tesseract from 'tesseract.js';
import type { Worker } from 'tesseract.js';
import { messageOf } from '../../lib/error-message.js';
import { packageOnDemand } from '../../lib/package-on-demand.js';
import { VisionUnavailableError } from './errors.js';
import type { EngineState } from './match-pool.js';
import { type Box, leftoverText, marginFor } from './ocr-leftovers.js';
import { prepareForOcr } from './ocr-prepare.js';
import { DEFAULT_DECODE_LIMITS, type DecodeLimits, decodeGray, type PixelBounds } from './gray-image.js';
import { centerOf, inReadingOrder, type TextLine } from './text-lines.js';

// Loaded with the first reading, not at start-up (lib/package-on-demand.ts).
const tesseract = packageOnDemand<typeof Tesseract>('tesseract.js');

export interface OcrReaderOptions {
  /** One call's limit; past it the worker is ended and the call fails (default 30 s). */
  timeoutMs?: number;
  /** The folder holding `eng.traineddata.gz` (default: the installed @tesseract.js-data/eng). */
  langPath?: string;
  limits?: DecodeLimits;
  /** Read again what the first pass left (lone letters, huge text; ocr-leftovers.ts). Default true; false only to measure the first pass alone. */
  secondPass?: boolean;
  /** Scale the picture is recognised at (default DEFAULT_OCR_SCALE); bounds are answered in the image's own pixels. */
  scale?: number;
}

/** The heights a leftover (a lone letter, a huge clock) is read at, in turn: body text for Tesseract. */
const LEFTOVER_HEIGHTS = [40, 28, 60];
const LEFTOVER_FRAME = 20;

/** Phone text (34 px and up on a 1080 px wide screen) reads as well at this scale, and faster. */
export const DEFAULT_OCR_SCALE = 0.75;

/**
 * Words below this confidence are dropped. On the simulator's screens real words score 0.88 to
 * 0.96 and what icons are misread as ("all" for the signal bars, "9" for Wi-Fi) 0.5 to 0.83.
 */
export const DEFAULT_MIN_CONFIDENCE = 0.8;

export interface ReadTextOptions {
  /** Read only this rectangle of the image; bounds in the answer stay in the image's pixels. */
  region?: PixelBounds;
  /** Words the recogniser is less sure of than this (0..1, default DEFAULT_MIN_CONFIDENCE) are left out. */
  minConfidence?: number;
}

/** The installed English model: LSTM only, the `best_int` variant (2.9 MB, quicker to load than the legacy+LSTM one). */
export function installedEnglishModel(): string {
  const pkg = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return join(dirname(pkg), '4.0.0_best_int');
}

interface Bbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface OcrWord {
  text: string;
  confidence: number;
  bbox: Bbox;
}
interface OcrLine extends OcrWord {
  words: OcrWord[];
}

export class OcrReader {
  private worker: Promise<Worker> | undefined;
  private started = false;
  private failed = false;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: OcrReaderOptions = {}) {}

  /** The lines of text in the image (PNG or JPEG bytes), in reading order. */
  read(image: Uint8Array, options: ReadTextOptions = {}): Promise<TextLine[]> {
    const run = this.queue.then(() => this.readNow(image, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Ends the worker thread; a reader that is closed refuses further calls. */
  async close(): Promise<void> {
    this.closed = true;
    await this.endWorker();
  }

  private async readNow(image: Uint8Array, options: ReadTextOptions): Promise<TextLine[]> {
    if (this.closed) throw new VisionUnavailableError('ocr', 'the reader is closed');
    const minConfidence = options.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
    // Decoded here (bounded, with the same errors as matching), re-encoded as a gray PNG: the
    // worker then decodes a small, known-good picture.
    const gray = await decodeGray(image, 'image', { region: options.region, limits: this.options.limits ?? DEFAULT_DECODE_LIMITS });
    const scale = this.options.scale ?? DEFAULT_OCR_SCALE;
    const prepared = await prepareForOcr(gray, { scale });
    const png = await sharp(prepared.data, { raw: { width: prepared.width, height: prepared.height, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer();
    const worker = await this.ensureWorker();
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const result = await Promise.race([worker.recognize(png, {}, { blocks: true, text: false }), deadline]);
      const lines = linesOf(result.data);
      const read = lines.flatMap((l) => (l.words ?? []).filter((w) => w.text.trim() !== '' && w.confidence / 100 >= minConfidence).map((w) => w.bbox));
      if (this.options.secondPass !== false) lines.push(...(await Promise.race([this.readLeftovers(worker, prepared, read, minConfidence), deadline])));
      const offset = options.region ?? { left: 0, top: 0 };
      return toLines(lines, { ...offset, scale }, minConfidence);
    } catch (error) {
      await this.endWorker();
      throw new VisionUnavailableError('ocr', messageOf(error));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The second pass (ocr-leftovers.ts): each group of marks the first pass did not read, cut
   * out with a margin, scaled to LEFTOVER_HEIGHTS in turn and read as one line (one character when it
   * is a single mark). Answers lines in the prepared picture's pixels.
   */
  private async readLeftovers(worker: Worker, prepared: { width: number; height: number; data: Uint8Array }, read: Box[], minConfidence: number): Promise<OcrLine[]> {
    const found: OcrLine[] = [];
    const leftovers = leftoverText(prepared, read);
    if (leftovers.length === 0) return found;
    const raw = { width: prepared.width, height: prepared.height, channels: 1 as const };
    try {
      for (const { box, marks } of leftovers) {
        const h = box.y1 - box.y0 + 1;
        const pad = marginFor(h);
        const left = Math.max(0, box.x0 - pad);
        const top = Math.max(0, box.y0 - pad);
        const width = Math.min(prepared.width, box.x1 + 1 + pad) - left;
        const height = Math.min(prepared.height, box.y1 + 1 + pad) - top;
        await worker.setParameters({ tessedit_pageseg_mode: marks === 1 ? tesseract().PSM.SINGLE_CHAR : tesseract().PSM.SINGLE_LINE });
        // Tesseract's answer for one short line depends on its size in ways no one size fixes
        // (an "N" reads at 28 px and 60 px but not at 40): the first size whose every word is
        // sure enough wins.
        let best: OcrLine[] = [];
        for (const target of LEFTOVER_HEIGHTS) {
          const factor = target / h;
          const crop = await sharp(prepared.data, { raw })
            .extract({ left, top, width, height })
            .resize(Math.max(1, Math.round(width * factor)), Math.max(1, Math.round(height * factor)), { kernel: 'lanczos3' })
            // A white frame beyond the margin: a lone letter near the picture's edge reads as nothing.
            .extend({ top: LEFTOVER_FRAME, bottom: LEFTOVER_FRAME, left: LEFTOVER_FRAME, right: LEFTOVER_FRAME, background: '#ffffff' })
            .greyscale()
            .png({ compressionLevel: 1 })
            .toBuffer();
          const answer = await worker.recognize(crop, {}, { blocks: true, text: false });
          const back = (b: Bbox): Bbox => ({ x0: (b.x0 - LEFTOVER_FRAME) / factor + left, y0: (b.y0 - LEFTOVER_FRAME) / factor + top, x1: (b.x1 - LEFTOVER_FRAME) / factor + left, y1: (b.y1 - LEFTOVER_FRAME) / factor + top });
          const lines = linesOf(answer.data)
            .map((line) => ({ ...line, bbox: back(line.bbox), words: (line.words ?? []).filter((w) => w.text.trim() !== '').map((w) => ({ ...w, bbox: back(w.bbox) })) }))
            // A lone mark read as punctuation ("[", "|") is a rim or a rule, not text.
            .filter((line) => line.words.length > 0 && line.words.some((w) => /[\p{L}\p{N}]/u.test(w.text)));
          if (lines.length > 0 && lines.every((line) => line.words.every((w) => w.confidence / 100 >= minConfidence))) {
            best = lines;
            break;
          }
        }
        found.push(...best);
      }
    } finally {
      await worker.setParameters({ tessedit_pageseg_mode: tesseract().PSM.SPARSE_TEXT });
    }
    return found;
  }

  private ensureWorker(): Promise<Worker> {
    this.worker ??= (async () => {
      const worker = await tesseract().createWorker('eng', tesseract().OEM.LSTM_ONLY, {
        langPath: this.options.langPath ?? installedEnglishModel(),
        cacheMethod: 'none',
        gzip: true,
        logger: () => undefined,
        errorHandler: () => void this.endWorker(),
      });
      // Screens hold scattered labels, not pages: find as much text as possible in no order.
      await worker.setParameters({ tessedit_pageseg_mode: tesseract().PSM.SPARSE_TEXT, user_defined_dpi: '300', debug_file: '/dev/null' });
      return worker;
    })();
    this.worker.then(
      () => {
        this.started = true;
        this.failed = false;
      },
      () => {
        this.worker = undefined;
        this.failed = true;
      },
    );
    return this.worker.catch((error: unknown) => {
      throw new VisionUnavailableError('ocr', `the OCR worker did not start: ${messageOf(error)}`);
    });
  }

  /** The engine's state (EngineState): Tesseract starts at the first reading, not with the process. */
  get state(): EngineState {
    if (this.worker) return this.started ? 'ready' : 'loading';
    return this.failed ? 'unavailable' : 'idle';
  }

  private async endWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.started = false;
    if (!worker) return;
    await worker.then((w) => w.terminate()).catch(() => undefined);
  }
}

function linesOf(page: unknown): OcrLine[] {
  const blocks = (page as { blocks?: { paragraphs?: { lines?: OcrLine[] }[] }[] | null }).blocks ?? [];
  return blocks.flatMap((b) => (b.paragraphs ?? []).flatMap((p) => p.lines ?? []));
}

/** Tesseract's lines, kept word by word above the confidence floor, moved back into the image's pixels. */
function toLines(lines: OcrLine[], offset: { left: number; top: number; scale: number }, minConfidence: number): TextLine[] {
  const x = (v: number) => Math.round(v / offset.scale) + offset.left;
  const y = (v: number) => Math.round(v / offset.scale) + offset.top;
  const out: TextLine[] = [];
  for (const line of lines) {
    const words = (line.words ?? []).filter((w) => w.text.trim() !== '' && w.confidence / 100 >= minConfidence);
    if (words.length === 0) continue;
    const box = {
      left: x(Math.min(...words.map((w) => w.bbox.x0))),
      top: y(Math.min(...words.map((w) => w.bbox.y0))),
      right: x(Math.max(...words.map((w) => w.bbox.x1))),
      bottom: y(Math.max(...words.map((w) => w.bbox.y1))),
    };
    const confidence = words.reduce((sum, w) => sum + w.confidence, 0) / words.length / 100;
    out.push({ text: words.map((w) => w.text.trim()).join(' '), bounds: box, center: centerOf(box), source: 'ocr', confidence: Math.round(confidence * 1000) / 1000 });
  }
  return inReadingOrder(out);
}
