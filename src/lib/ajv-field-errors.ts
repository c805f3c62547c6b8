// Ajv's errors as the contract's field errors, [{path, message}] with paths like `body.port`
// or `query.page`: for request validation (http/) and for tool arguments (the MCP catalogue).
import type { FieldError } from '../core/errors.js';

export interface AjvLikeError {
  instancePath?: string;
  schemaPath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Ajv errors as [{path, message}] with paths like `body.port` or `query.page`. */
export function toFieldErrors(errors: AjvLikeError[], context: string): FieldError[] {
  const part = PART_NAMES[context] ?? context;
  return errors.map((e) => {
    const segments = (e.instancePath ?? '').split('/').filter(Boolean);
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      segments.push(String(e.params?.missingProperty));
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      segments.push(String(e.params?.additionalProperty));
      message = 'is not an accepted field';
    } else if (e.keyword === 'enum' && Array.isArray(e.params?.allowedValues)) {
      message = `must be one of ${(e.params.allowedValues as unknown[]).map(String).join(', ')}`;
    }
    return { path: [part, ...segments].join('.'), message };
  });
}
