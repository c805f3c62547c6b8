// Does an answer match the document? Its status must be listed for the operation, its
// media type the listed one, and a JSON body must satisfy the listed schema (Ajv, JSON
// Schema 2020-12 as OpenAPI 3.1 uses, with `$ref`s resolved inside the document).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenApiDocument, Operation } from './operations.js';

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export class ResponseChecker {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false });
    addFormats.default(this.ajv);
    this.ajv.addSchema({ ...doc, $id: 'openapi' });
  }

  private validator(op: Operation, status: string, mediaType: string): ValidateFunction {
    const ref = `openapi#/${pointer('paths', op.path, op.method, 'responses', status, 'content', mediaType, 'schema')}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    return validate;
  }

  /** Why the answer breaks the document, or undefined when it does not. */
  problem(op: Operation, status: number, contentType: string | undefined, body: string): string | undefined {
    const documented = op.responses[String(status)];
    if (!documented) return `status ${status} is not documented for ${op.operationId} (documented: ${Object.keys(op.responses).join(', ')})`;
    const media = Object.keys(documented.content ?? {});
    if (media.length === 0) return body.length === 0 ? undefined : `status ${status} is documented without a body, but one came (${body.slice(0, 200)})`;
    const type = (contentType ?? '').split(';')[0].trim();
    if (!media.includes(type)) return `media type ${type || '(none)'} is not documented for ${status} (documented: ${media.join(', ')})`;
    if (type !== 'application/json') return undefined;
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return `the ${status} body is not JSON: ${body.slice(0, 200)}`;
    }
    const validate = this.validator(op, String(status), type);
    if (validate(json)) return undefined;
    return `the ${status} body breaks its schema: ${this.ajv.errorsText(validate.errors)}; body: ${body.slice(0, 300)}`;
  }
}
