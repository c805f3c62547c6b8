// Every request body goes through parseJsonBody: JSON in UTF-8, uncompressed, and free of
// what would break later or on the other engine: nesting deeper than MAX_JSON_DEPTH (the
// serialiser, Ajv and JSON.stringify recurse, so a deep body stored today fails every read
// tomorrow), NUL characters (PostgreSQL text cannot hold them; SQLite can, so the engines
// would disagree), lone surrogates (not Unicode; stored as U+FFFD by PostgreSQL), numbers
// JSON.parse turns into Infinity (stringified as null), and prototype keys. The walk is
// iterative so that no body, however deep, can exhaust the stack.
import type { IncomingHttpHeaders } from 'node:http';
import { BadRequestError, type FieldError, MAX_REPORTED_ERRORS, UnsupportedMediaTypeError, ValidationError } from '../core/errors.js';

/** Levels of nested arrays and objects a body may have, the body itself being level 1. */
export const MAX_JSON_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

// With the u flag a surrogate pair is one code point, so only a lone half matches.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Why `text` cannot be stored, or null when it can. Shared with query and path checks. */
export function textProblem(text: string): string | null {
  if (text.includes('\0')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone surrogate (\\ud800 to \\udfff without its pair); send well-formed Unicode';
  return null;
}

/** 415 for a compressed body or a charset other than UTF-8: both would be misread. */
function checkEncoding(headers: IncomingHttpHeaders): void {
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.split(',').some((coding) => !['identity', ''].includes(coding.trim().toLowerCase()))) {
    throw new UnsupportedMediaTypeError(`This server does not accept compressed bodies (Content-Encoding: ${encoding.slice(0, 40)}); send the JSON uncompressed.`);
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw new UnsupportedMediaTypeError(`Send the body in UTF-8 (charset=utf-8); this server does not read charset=${charset.slice(0, 40)}.`);
  }
}

/** The parsed body, or undefined for an empty one; throws the envelope error otherwise. */
export function parseJsonBody(headers: IncomingHttpHeaders, bytes: Buffer): unknown {
  checkEncoding(headers);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new BadRequestError('The request body is not valid UTF-8.');
  }
  // An empty body with a JSON content type is "no body": clients often send the header on
  // bodiless POSTs such as revoke or test.
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequestError('The request body is not valid JSON.');
  }
  inspectJson(value);
  return value;
}

interface Frame {
  value: object;
  depth: number;
  parent: Frame | null;
  key: string;
}

function pathOf(frame: Frame | null, key?: string): string {
  const segments = key === undefined ? [] : [key];
  for (let f = frame; f?.parent; f = f.parent) segments.push(f.key);
  return ['body', ...segments.reverse()].join('.');
}

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Throws 400 for a prototype key, or 422 listing what breaks the rules above. */
export function inspectJson(root: unknown): void {
  const found: FieldError[] = [];
  let total = 0;
  const report = (path: string, message: string) => {
    total++;
    if (found.length < MAX_REPORTED_ERRORS) found.push({ path, message });
  };
  const checkScalar = (value: unknown, frame: Frame | null, key?: string) => {
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) report(pathOf(frame, key), problem);
    } else if (typeof value === 'number' && !Number.isFinite(value)) {
      report(pathOf(frame, key), 'must be a finite number');
    }
  };

  if (!isContainer(root)) checkScalar(root, null);
  const stack: Frame[] = isContainer(root) ? [{ value: root, depth: 1, parent: null, key: '' }] : [];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.depth > MAX_JSON_DEPTH) {
      // Not entered: the rest of a deep body costs nothing.
      report(pathOf(frame), `nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`);
      continue;
    }
    const children: Frame[] = [];
    const isArray = Array.isArray(frame.value);
    const keys = isArray ? null : Object.keys(frame.value);
    const length = isArray ? (frame.value as unknown[]).length : (keys as string[]).length;
    for (let i = 0; i < length; i++) {
      const key = keys ? keys[i] : String(i);
      const child = (frame.value as Record<string, unknown>)[key];
      if (keys) {
        if (key === '__proto__' || (key === 'constructor' && isContainer(child) && Object.hasOwn(child, 'prototype'))) {
          throw new BadRequestError(`The request body uses the reserved key ${key === '__proto__' ? '__proto__' : 'constructor.prototype'} (in ${pathOf(frame).slice(0, 200)}); rename it.`);
        }
        const problem = textProblem(key);
        if (problem) report(pathOf(frame), `has a key that ${problem}`);
      }
      if (isContainer(child)) children.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      else checkScalar(child, frame, key);
    }
    // Reversed so that containers are visited in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  if (total > 0) throw new ValidationError(found, total);
}
