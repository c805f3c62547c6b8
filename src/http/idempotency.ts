// Idempotent requests at the HTTP edge (decisions.md §19, docs/decisions/0024): every key
// route with POST takes an optional `Idempotency-Key`. The guard installer attaches these
// hooks to each such route, so none can forget them:
// - preValidation: the header's rule (422 naming it) and the request's fingerprint (method,
//   path and the canonical JSON of the body as sent, before defaults fill it in);
// - preHandler (after the key gate, so a replay still passes it and counts against the
//   limits): claim the key, or answer the kept success, 409 or 422;
// - onSend: a 2xx answer is kept before the client can see it (a retry that follows the
//   answer finds it); any other answer frees the key, so a retry is processed afresh.
import type { FastifyReply, FastifyRequest, onResponseAsyncHookHandler, onSendAsyncHookHandler, preHandlerAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError, ValidationError } from '../core/errors.js';
import { IDEMPOTENCY_CLAIM_MS, type IdempotencyClaim, type IdempotencyStore } from '../core/idempotency.js';
import { canonicalJson } from '../lib/canonical-json.js';
import { sha256Hex } from '../lib/crypto.js';
import { callerOf } from './route-auth.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;

/** The header in the OpenAPI document and Fastify's header schema (the hook below answers a bad one first, in plain words). */
export const IDEMPOTENCY_HEADER_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_KEY_LENGTH,
  pattern: '^[\\x20-\\x7E]+$',
  description:
    'Makes a retry safe: 1 to 255 printable ASCII characters, fresh for each new request (a UUID). A success (2xx) is kept 24 h per account; the same key with the same method, path and body answers it again with `Idempotent-Replayed: true`, doing nothing twice. Another request with the key answers 422 `idempotency_key_reused`; one sent while the first is still processed, 409 `idempotency_key_in_use` with `Retry-After: 1`.',
};

/** Renew a claim well inside its 60 s, so only a process that died lets it lapse. */
const RENEW_EVERY_MS = IDEMPOTENCY_CLAIM_MS / 3;

interface Pending {
  key: string;
  fingerprint: string;
  claim?: IdempotencyClaim;
  renewal?: NodeJS.Timeout;
}

function headerProblem(value: string): string | null {
  if (value.length === 0) return 'must not be empty';
  if (value.length > MAX_KEY_LENGTH) return `must be at most ${MAX_KEY_LENGTH} characters`;
  if (!PRINTABLE_ASCII.test(value)) return 'must be printable ASCII (letters, digits, punctuation, space)';
  return null;
}

/** Method, path (without the query) and the body as a JSON value: key order and spacing do not matter. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return sha256Hex(`${method}\n${path}\n${body === undefined ? '' : canonicalJson(body)}`);
}

const fingerprintOf = (request: FastifyRequest) => requestFingerprint(request.method, request.url.split('?', 1)[0], request.body);

export interface IdempotencyHooks {
  preValidation: preValidationAsyncHookHandler;
  preHandler: preHandlerAsyncHookHandler;
  onSend: onSendAsyncHookHandler;
  onResponse: onResponseAsyncHookHandler;
}

export function idempotencyHooks(store: IdempotencyStore): IdempotencyHooks {
  const pending = new WeakMap<FastifyRequest, Pending>();

  const finish = (state: Pending) => {
    clearInterval(state.renewal);
    const { claim } = state;
    state.claim = undefined;
    return claim;
  };

  return {
    async preValidation(request) {
      const value = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
      if (value === undefined) return;
      const key = [value].flat().join(', ');
      const problem = headerProblem(key);
      if (problem) throw new ValidationError([{ path: `header.${IDEMPOTENCY_HEADER}`, message: problem }]);
      pending.set(request, { key, fingerprint: fingerprintOf(request) });
    },

    async preHandler(request: FastifyRequest, reply: FastifyReply) {
      const state = pending.get(request);
      if (!state) return;
      const outcome = await store.begin(callerOf(request).userId, state.key, state.fingerprint);
      switch (outcome.kind) {
        case 'reused':
          throw new IdempotencyKeyReusedError();
        case 'in_use':
          throw new IdempotencyKeyInUseError();
        case 'replay': {
          const { answer } = outcome;
          reply.code(answer.status).header(REPLAYED_HEADER, 'true');
          if (answer.contentType) reply.type(answer.contentType);
          // Bytes, not an object: sent exactly as kept, without the route's serialiser.
          return reply.send(Buffer.from(answer.body));
        }
        case 'claimed': {
          const { claim } = outcome;
          state.claim = claim;
          state.renewal = setInterval(() => {
            store.renew(claim).catch((error: unknown) => request.log.warn({ err: error }, 'renewing an idempotency claim failed'));
          }, RENEW_EVERY_MS);
          state.renewal.unref();
          return;
        }
      }
    },

    async onSend(request, reply, payload) {
      const state = pending.get(request);
      const claim = state && finish(state);
      if (!claim) return payload;
      const kept = typeof payload === 'string' || Buffer.isBuffer(payload);
      try {
        if (reply.statusCode >= 200 && reply.statusCode < 300 && kept) {
          const contentType = reply.getHeader('content-type');
          await store.keep(claim, { status: reply.statusCode, contentType: typeof contentType === 'string' ? contentType : null, body: payload.toString() });
        } else {
          await store.release(claim);
        }
      } catch (error) {
        // The answer itself stands; without its row, the claim lapses and a retry is processed afresh.
        request.log.warn({ err: error }, 'recording an idempotent answer failed');
      }
      return payload;
    },

    // A request that ended without sending (its connection closed first): free the key.
    async onResponse(request) {
      const state = pending.get(request);
      const claim = state && finish(state);
      if (claim) await store.release(claim).catch((error: unknown) => request.log.warn({ err: error }, 'releasing an idempotency claim failed'));
    },
  };
}
