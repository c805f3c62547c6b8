// Two Ajv instances: query strings, paths and headers arrive as text and are coerced to the
// schema's types; JSON bodies are not coerced, so a wrong type is an error the caller sees.
// Bodies are parsed by parseJsonBody (json-body.ts); query strings and path parameters get
// the same text rule here, so no text the database cannot hold reaches a route.
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { type FieldError, ValidationError } from '../core/errors.js';
import { onFirstUse, validatorOnFirstUse } from '../lib/on-first-use.js';
import { parseJsonBody, textProblem } from '../lib/json-body.js';

function makeAjv(options: Options): Ajv {
  // allErrors: a caller fixes every mistake in one round; the report is capped (ValidationError).
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, removeAdditional: false, ...options });
  // ajv-formats is CommonJS; under NodeNext its callable export is `.default`.
  addFormats.default(ajv);
  return ajv;
}

/** 422 for a NUL or a lone surrogate in a path parameter, or in a query value or name of a route that reads its query. */
function checkQueryAndPath(request: FastifyRequest): void {
  const problems: FieldError[] = [];
  const inspect = (part: 'query' | 'path', values: unknown) => {
    if (typeof values !== 'object' || values === null) return;
    for (const [name, value] of Object.entries(values)) {
      const nameProblem = textProblem(name);
      if (nameProblem) problems.push({ path: part, message: `has a parameter name that ${nameProblem}` });
      for (const text of [value].flat()) {
        const problem = typeof text === 'string' ? textProblem(text) : null;
        if (problem) problems.push({ path: `${part}.${name}`, message: problem });
      }
    }
  };
  inspect('path', request.params);
  // Only a route that reads a query string gets its text checked: one that declares none never
  // looks at it, so a NUL there reaches nothing, and it answers as documented (no 422 listed).
  if (request.routeOptions.schema?.querystring !== undefined) inspect('query', request.query);
  if (problems.length > 0) throw new ValidationError(problems);
}

export function installValidation(app: FastifyInstance): void {
  const forBody = onFirstUse(() => makeAjv({ coerceTypes: false }));
  const forText = onFirstUse(() => makeAjv({ coerceTypes: 'array' }));
  // Compiled on a route's first request, not at start-up (lib/on-first-use.ts).
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) =>
    validatorOnFirstUse(() => (httpPart === 'body' ? forBody() : forText()).compile(schema as object)),
  );
  // Bodies are JSON only; Fastify's built-in text parser would let a text body reach
  // validation and come back as a confusing "must be object".
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request.headers, body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addHook('preValidation', async (request) => checkQueryAndPath(request));
}
