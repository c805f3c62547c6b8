// CommonJS packages that a given process may never use (the PostgreSQL driver on the embedded
// default, Redis without REDIS_URL, adb without an adb host, Tesseract before the first OCR),
// loaded the first time they are asked for rather than at start-up, where together they cost
// about 0.3 s (issue 34 point 4). `require` is synchronous, so callers keep synchronous code.
import { createRequire } from 'node:module';
import { onFirstUse } from './on-first-use.js';

const require = createRequire(import.meta.url);

/** The package's exports, loaded on the first call; `Exports` is `typeof import('name')`. */
export function packageOnDemand<Exports>(name: string): () => Exports {
  return onFirstUse(() => require(name) as Exports);
}
