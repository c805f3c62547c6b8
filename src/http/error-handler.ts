// Turns every failure into the envelope {message, details: {code, ...}}. Unknown errors
// become a generic 500, logged with their cause; the client never sees a stack.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isForeignKeyViolation } from '../db/database.js';
import { AppError, type FieldError } from './errors.js';

interface AjvLikeError {
  instancePath?: string;
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

function send(reply: FastifyReply, error: AppError): FastifyReply {
  reply.headers(error.headers);
  return reply.code(error.status).send({ message: error.message, details: { code: error.code, ...error.extra } });
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) return send(reply, error);
    if (error.validation) {
      const errors = toFieldErrors(error.validation as AjvLikeError[], error.validationContext ?? 'body');
      return reply.code(422).send({
        message: `Validation failed: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`,
        details: { code: 'validation_failed', errors },
      });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return send(reply, new AppError(400, 'bad_request', 'The request body is not valid JSON.'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, new AppError(400, 'bad_request', 'Send the body as JSON with Content-Type: application/json.'));
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, new AppError(413, 'payload_too_large', 'The request body is larger than this route accepts.', { limit: request.routeOptions.bodyLimit }));
    }
    if (isForeignKeyViolation(error)) {
      // A row this request refers to was deleted by another request meanwhile.
      return send(reply, new AppError(409, 'conflict', 'Something this request refers to was removed while it ran. Reload and try again.'));
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, new AppError(error.statusCode, 'bad_request', error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, new AppError(500, 'internal_error', 'Something went wrong on our side. The error was logged; please try again.'));
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, new AppError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
