// Every API failure arrives as {message, details: {code, ...}}. The console shows the
// sentence the API wrote; `fieldErrors` carries the per-field list of a 422.
export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function toApiError(status: number, body: unknown): ApiError {
  if (isRecord(body) && typeof body.message === 'string') {
    const details = isRecord(body.details) ? body.details : {};
    const fieldErrors = Array.isArray(details.errors)
      ? details.errors.filter((e): e is FieldError => isRecord(e) && typeof e.path === 'string' && typeof e.message === 'string')
      : [];
    return new ApiError(status, typeof details.code === 'string' ? details.code : 'error', body.message, fieldErrors, details);
  }
  return new ApiError(status, 'unexpected_response', `The service answered ${status} without an explanation. Try again in a moment.`);
}

interface ClientResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits an openapi-fetch call and returns its data, or throws the API's error. */
export async function unwrap<T>(call: Promise<ClientResult<T>>): Promise<T> {
  let result: ClientResult<T>;
  try {
    result = await call;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(0, 'network_error', 'The service could not be reached. Check your connection and try again.');
  }
  if (!result.response.ok) throw toApiError(result.response.status, result.error);
  return result.data as T;
}

export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : 'Something went wrong. Try again.';
