// Turns every failure into the envelope {message, details: {code, ...}}. Unknown errors
// become a generic 500, logged with their cause; the client never sees a stack. Failures
// before routing (frameworkErrors) and those Node's HTTP parser raises (answerClientError)
// use the same envelope.
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isForeignKeyViolation } from '../db/database.js';
import { AppError, MAX_REPORTED_ERRORS, MethodNotAllowedError, UnsupportedMediaTypeError, ValidationError } from '../core/errors.js';
import { type AjvLikeError, toFieldErrors } from '../lib/ajv-field-errors.js';
import { foldAnyOf } from './fold-any-of.js';

/**
 * The 422 for Ajv's errors. Only the reported few are converted: a 1 MiB body can hold
 * hundreds of thousands of mistakes, and Fastify's default formatter would join them all
 * into one message string.
 */
function validationFailed(errors: AjvLikeError[], context: string): ValidationError {
  const folded = foldAnyOf(errors);
  return new ValidationError(toFieldErrors(folded.slice(0, MAX_REPORTED_ERRORS), context), folded.length);
}

function send(reply: FastifyReply, error: AppError): FastifyReply {
  reply.headers(error.headers);
  return reply.code(error.status).send({ message: error.message, details: { code: error.code, ...error.extra } });
}

/** The media types a route declares for a body that is not JSON (the APK upload); undefined for JSON routes. */
function rawBodyTypes(request: FastifyRequest): string[] | undefined {
  const body = request.routeOptions.schema?.body as { content?: Record<string, unknown> } | undefined;
  const types = Object.keys(body?.content ?? {});
  return types.length > 0 && !types.includes('application/json') ? types : undefined;
}

export function installErrorHandling(app: FastifyInstance): void {
  // Every schema failure becomes the capped 422 here, so the error handler sees an AppError.
  app.setSchemaErrorFormatter((errors, context) => validationFailed(errors, context));
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) return send(reply, error);
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return send(reply, new AppError(400, 'bad_request', 'The request body is not valid JSON.'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
        // A route that takes raw bytes (the APK upload) names its media types: anything else is 415 there (docs/errors.md).
        const raw = rawBodyTypes(request);
        if (raw) return send(reply, new UnsupportedMediaTypeError(`Send the body with Content-Type ${raw.join(' or ')}.`));
        return send(reply, new AppError(400, 'bad_request', 'Send the body as JSON with Content-Type: application/json.'));
      }
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

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    // The router answers 414 for an over-long parameter only when nothing else matches; the
    // console's catch-all matches everything, so such a path arrives here. No literal segment
    // of any route is that long, so a segment past the parameter limit can only be a value.
    if (path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH)) return send(reply, uriTooLong());
    // A catch-all (the console's `GET /*`) matches every path, so it says nothing about which
    // methods this path has; counting it would turn every unknown path into a 405.
    const allowed = METHODS.filter((method) => {
      const route = app.findRoute({ method, url: path });
      return route !== null && !('*' in route.params);
    });
    if (allowed.length > 0) return send(reply, new MethodNotAllowedError(request.method, shortUrl(path), allowed));
    return send(reply, new AppError(404, 'not_found', `No route ${request.method} ${shortUrl(path)}.`));
  });
}

/** Fastify's default `maxParamLength`: the longest path parameter the router takes. */
const MAX_PARAM_LENGTH = 100;
const uriTooLong = () => new AppError(414, 'uri_too_long', `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`);

/** The methods a 405 may offer, in the order `Allow` lists them. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** A URL quoted in a message, bounded so a long URL does not make a long reply. */
const shortUrl = (url: string) => (url.length > 200 ? `${url.slice(0, 199)}…` : url);

/** Fastify's `frameworkErrors`: the router's refusals, before any route or hook runs. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return send(reply, new AppError(400, 'bad_request', 'The URL is not validly percent-encoded (each %XX must form UTF-8).'));
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return send(reply, uriTooLong());
    default:
      request.log.error({ err: error }, 'router error');
      return send(reply, new AppError(500, 'internal_error', 'Something went wrong on our side. The error was logged; please try again.'));
  }
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request headers are larger than this server accepts (16 KiB in all).'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request was not received in time.'],
  ERR_HTTP_REQUEST_HEADERS_TIMEOUT: [408, 'request_timeout', 'The request headers were not received in time.'],
};

/**
 * The HTTP server's `clientError` handler: Node refused the bytes before Fastify saw a
 * request (huge headers, a malformed request line or header, a bad Content-Length). Writes a
 * complete response in the envelope and closes the connection, whose framing is lost.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Node's own rule: never write into a response already under way on this socket.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy(error);
    return;
  }
  const [status, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'bad_request', 'The request is not valid HTTP/1.1.'];
  const body = JSON.stringify({ message, details: { code } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  // end() lets the client read the answer before the close; a client that keeps its side
  // open must still not hold the connection (or a graceful shutdown) for long.
  setTimeout(() => socket.destroy(), 1000).unref();
}
