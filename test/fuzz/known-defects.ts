// KNOWN DEFECTS the fuzz test tolerates until their fixes land (issue 9, section 1; the
// `http` branch fixes them). Each entry names the defect and matches only the failures it
// explains; every other failure still fails the test. Delete an entry once its fix is
// merged, and delete this file when the list is empty. (Checked with a trial merge of main at
// 73c5bec, which has the http branch's fixes: the fuzz test passes there with this list empty.)
import type { FuzzRequest, Operation } from './operations.js';

export interface Failure {
  op: Operation;
  request: FuzzRequest;
  /** The URL as sent and the body text as sent. */
  url: string;
  bodyText: string | undefined;
  status: number;
  responseBody: string;
  engine: 'sqlite' | 'postgres';
  /** Which check failed: a 5xx; an answer the document does not describe; a refused request that changed state. */
  kind: 'server error' | 'document' | 'state';
  detail: string;
}

export interface KnownDefect {
  name: string;
  explains(failure: Failure): boolean;
}

/** The answer's JSON body, or undefined. */
function answer(failure: Failure): Record<string, unknown> | undefined {
  try {
    return JSON.parse(failure.responseBody) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** How deeply the JSON text nests arrays and objects (strings skipped). */
export function nestingDepth(text: string | undefined): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  const json = text ?? '';
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

const carriesNul = (f: Failure) => /%00/.test(f.url) || (f.bodyText ?? '').includes('\\u0000') || (f.bodyText ?? '').includes('\u0000');

export const KNOWN_DEFECTS: KnownDefect[] = [
  {
    // PostgreSQL text cannot hold NUL; the http branch refuses NUL in text everywhere with 422.
    name: 'NUL (\\u0000) in text answers 500 on PostgreSQL',
    explains: (f) => f.engine === 'postgres' && f.kind === 'server error' && carriesNul(f),
  },
  {
    // No nesting limit yet: the http branch refuses bodies deeper than a documented limit with 422.
    name: 'deep JSON: a body nested thousands deep answers 500',
    explains: (f) => f.kind === 'server error' && nestingDepth(f.bodyText) > 1000,
  },
  {
    // Fastify refuses these before our error handler sees them; the http branch routes them
    // through `frameworkErrors` into the envelope.
    name: 'errors outside the envelope: a bad URL encoding (400 FST_ERR_BAD_URL) and an over-long path parameter (414 FST_ERR_MAX_PARAM_LENGTH) answer Fastify\'s own body',
    explains: (f) => f.kind === 'document' && [400, 414].includes(f.status) && /^FST_ERR_(BAD_URL|MAX_PARAM_LENGTH)$/.test(String(answer(f)?.code)),
  },
];
