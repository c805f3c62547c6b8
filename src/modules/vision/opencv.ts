// OpenCV's WebAssembly build (@techstark/opencv-js, pinned to 4.12.0-release.1), loaded once
// per thread, lazily: parsing and compiling its 10 MB take about half a second, which no
// caller that never matches an image should pay. Only the calls the matcher makes are typed
// here, narrowly, instead of the package's generated declarations.
//
// What must stay true: every Mat made is deleted (the WebAssembly heap is not garbage
// collected, and it never shrinks). `MatScope` makes that structural: a match creates its
// Mats through one scope and deletes them all in a `finally`.
import { createRequire } from 'node:module';
import { messageOf } from '../../lib/error-message.js';
import { VisionUnavailableError } from './errors.js';

export interface CvMat {
  readonly rows: number;
  readonly cols: number;
  /** A view of the pixels in the WebAssembly heap; valid until the heap grows. */
  readonly data: Uint8Array;
  readonly data32F: Float32Array;
  roi(rect: CvRect): CvMat;
  delete(): void;
}

/** Plain value objects (embind value types), not heap allocations. */
export type CvRect = { x: number; y: number; width: number; height: number };
export type CvSize = { width: number; height: number };

export interface OpenCv {
  Mat: { new (): CvMat; new (rows: number, cols: number, type: number): CvMat };
  Rect: new (x: number, y: number, width: number, height: number) => CvRect;
  Size: new (width: number, height: number) => CvSize;
  CV_8UC1: number;
  CV_32FC1: number;
  INTER_AREA: number;
  INTER_LINEAR: number;
  TM_CCOEFF_NORMED: number;
  HEAPU8: Uint8Array;
  resize(src: CvMat, dst: CvMat, size: CvSize, fx: number, fy: number, interpolation: number): void;
  matchTemplate(image: CvMat, templ: CvMat, result: CvMat, method: number): void;
  exceptionFromPtr?(pointer: number): { msg?: string };
}

type Thenable = { then(resolve: (cv: OpenCv) => void): void };
type Pending = { onRuntimeInitialized?: () => void };

let loading: Promise<OpenCv> | undefined;

/** The one OpenCV of this thread, loaded on first use. A failure is not cached: the next call tries again. */
export function loadOpenCv(): Promise<OpenCv> {
  loading ??= (async () => {
    // require, not import(): the package is CommonJS whose exports include `then`, so the ES
    // namespace object import() gives is itself a thenable.
    const module = createRequire(import.meta.url)('@techstark/opencv-js') as (Thenable | Pending) & Partial<OpenCv>;
    if (typeof module.Mat !== 'function') {
      await new Promise<void>((resolve) => {
        if ('then' in module && typeof module.then === 'function') module.then(() => resolve());
        else (module as Pending).onRuntimeInitialized = () => resolve();
      });
    }
    // The ready Emscripten module is still a thenable that resolves with itself: returned from
    // an async function or awaited, it would be adopted again and again, forever. Its `then`
    // has done its job; without it the module is a plain object.
    delete (module as Partial<Thenable>).then;
    return module as OpenCv;
  })().catch((error: unknown) => {
    loading = undefined;
    throw new VisionUnavailableError('opencv', messageOf(error));
  });
  return loading;
}

/** Every Mat a match makes, deleted together at its end. */
export class MatScope {
  private readonly mats: CvMat[] = [];
  constructor(readonly cv: OpenCv) {}

  /** A Mat owned by this scope. */
  mat(rows?: number, cols?: number, type?: number): CvMat {
    const mat = rows === undefined ? new this.cv.Mat() : new this.cv.Mat(rows, cols ?? 0, type ?? this.cv.CV_8UC1);
    this.mats.push(mat);
    return mat;
  }

  /** A region of a Mat (a header over the same pixels, but a Mat to delete all the same). */
  roi(mat: CvMat, rect: CvRect): CvMat {
    const view = mat.roi(rect);
    this.mats.push(view);
    return view;
  }

  /** The Mats not yet deleted (0 after `close`). */
  get live(): number {
    return this.mats.length;
  }

  close(): void {
    for (const mat of this.mats.splice(0)) mat.delete();
  }
}

/** OpenCV throws bare heap addresses from WebAssembly; turn them into messages. */
export function cvErrorMessage(cv: OpenCv, error: unknown): string {
  if (typeof error === 'number' && cv.exceptionFromPtr) return cv.exceptionFromPtr(error).msg ?? `OpenCV exception ${error}`;
  return messageOf(error);
}
