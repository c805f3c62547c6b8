// Two Ajv instances: query strings, paths and headers arrive as text and are coerced to the
// schema's types; JSON bodies are not coerced, so a wrong type is an error the caller sees.
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, removeAdditional: false, ...options });
  // ajv-formats is CommonJS; under NodeNext its callable export is `.default`.
  addFormats.default(ajv);
  return ajv;
}

export function installValidation(app: FastifyInstance): void {
  const forBody = makeAjv({ coerceTypes: false });
  const forText = makeAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) =>
    httpPart === 'body' ? forBody.compile(schema as object) : forText.compile(schema as object),
  );
  // An empty body with a JSON content type is "no body", not an error: clients often send
  // the header on bodiless POSTs such as revoke or test.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Bodies are JSON only; Fastify's built-in text parser would let a text body reach
  // validation and come back as a confusing "must be object".
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });
}
