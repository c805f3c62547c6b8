// One error type per failure kind, each carrying its status and `details.code`. Services
// throw these; the error handler turns them into the envelope {message, details: {code}}.
export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: ErrorDetails = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface FieldError {
  path: string;
  message: string;
}

export class BadRequestError extends AppError {
  constructor(message: string, code = 'bad_request') {
    super(400, code, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(code: 'missing_api_key' | 'invalid_api_key' | 'api_key_not_user_scoped' | 'missing_credentials' | 'invalid_credentials', message: string, headers: Record<string, string> = {}) {
    super(401, code, message, {}, headers);
  }
}

export class SubscriptionRequiredError extends AppError {
  constructor() {
    super(402, 'subscription_required', 'This account has no active subscription or trial. Subscribe (or ask the operator to restore the plan) and the same keys work again.');
  }
}

export class InsufficientScopeError extends AppError {
  constructor(required: string[]) {
    super(
      403,
      'insufficient_scope',
      required.length === 0
        ? 'This route needs a full-access key (a key created with no scopes).'
        : `This key lacks the scope this route needs: ${required.join(', ')}.`,
      { required_scopes: required, ...(required.length === 0 ? { full_access_required: true } : {}) },
    );
  }
}

export class ForbiddenError extends AppError {
  constructor(code: string, message: string) {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found.', code = 'not_found', extra: ErrorDetails = {}) {
    super(404, code, message, extra);
  }
}

/** 405, with `Allow` listing the methods the path has (RFC 9110 §15.5.6). */
export class MethodNotAllowedError extends AppError {
  constructor(method: string, path: string, allowed: string[]) {
    super(405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(', ')}.`, {}, { allow: allowed.join(', ') });
  }
}

export class ConflictError extends AppError {
  constructor(code: string, message: string) {
    super(409, code, message);
  }
}

/** 409 `device_busy`: the cloud device has an active run, or a lease held by another caller (decisions.md §9, §10). */
export class DeviceBusyError extends ConflictError {
  constructor(message = 'This device is busy: it has an active run or is leased. Wait until that ends, or stop it.') {
    super('device_busy', message);
  }
}

/** 404 `not_a_cloud_device`: a device of the user's own machine on a cloud-device or cloud-run route. */
export class NotACloudDeviceError extends NotFoundError {
  constructor(message = 'This is a device on your own machine, not a cloud device.') {
    super(message, 'not_a_cloud_device');
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, 'payload_too_large', `The request body is larger than this route accepts (${limitBytes} bytes).`, { limit: limitBytes });
  }
}

/** How many field errors a 422 reports; `details.error_count` gives the total. */
export const MAX_REPORTED_ERRORS = 10;
const MAX_PATH_CHARS = 200;
const MAX_MESSAGE_CHARS = 300;

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * 422 `validation_failed`. Only the first few errors are reported, each bounded in length,
 * and the message names only the first: a large bad body must not buy a reply many times
 * its own size. `total` is the number of errors found when the caller kept only some.
 */
export class ValidationError extends AppError {
  constructor(errors: FieldError[], total = errors.length) {
    const reported = errors.slice(0, MAX_REPORTED_ERRORS).map((e) => ({ path: shorten(e.path, MAX_PATH_CHARS), message: shorten(e.message, MAX_MESSAGE_CHARS) }));
    const count = Math.max(total, errors.length);
    const first = reported[0];
    const more = count > 1 ? ` (and ${count - 1} more)` : '';
    super(422, 'validation_failed', first ? `Validation failed: ${first.path} ${first.message}${more}.` : 'Validation failed.', { errors: reported, error_count: count });
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message);
  }
}

/** 422 for a count limit (keys, webhook endpoints), with the limit in the details. */
export class LimitReachedError extends AppError {
  constructor(code: string, message: string, limit: number) {
    super(422, code, message, { limit });
  }
}

export class RateLimitedError extends AppError {
  constructor(message: string, headers: Record<string, string>) {
    super(429, 'rate_limit_exceeded', message, {}, headers);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(code: string, message: string) {
    super(503, code, message);
  }
}

/** 422 `idempotency_key_reused`: an `Idempotency-Key` sent again with another method, path or body (decisions.md §19). */
export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request (method, path or body). Use a fresh key for a new request.');
  }
}

/** 409 `idempotency_key_in_use` with `Retry-After: 1`: the first request with this key is still being processed (§19). */
export class IdempotencyKeyInUseError extends AppError {
  constructor() {
    super(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed. Retry in a second to get its answer.', {}, { 'retry-after': '1' });
  }
}
