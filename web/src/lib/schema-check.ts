// Checks a value against a JSON Schema the service publishes (the block program's, at
// /schemas/block-program.json), in the browser, as the person types. Ajv cannot run here:
// it compiles validators with `new Function`, which the console's CSP (no 'unsafe-eval')
// refuses. So this interprets the keywords that schema uses: $ref into $defs, type, const,
// enum, properties, required, additionalProperties, items, oneOf (with the OpenAPI
// `discriminator` the service uses to pick a step's branch), dependentRequired, minProperties
// (an empty selector), maxItems, and the number and string bounds. Unknown keywords are ignored, so the service's own check on save
// stays the final word; paths are written as the service writes them (`body.blocks.steps.2.type`).

export type Schema = { [keyword: string]: unknown };
export interface SchemaError { path: string; message: string }

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
const matchesType = (v: unknown, t: string) => typeOf(v) === t || (t === 'number' && typeOf(v) === 'integer');
const isObject = (v: unknown): v is Record<string, unknown> => typeOf(v) === 'object';

export function checkAgainstSchema(root: Schema, value: unknown, prefix: string): SchemaError[] {
  const defs = (root.$defs ?? {}) as Record<string, Schema>;
  const resolve = (s: Schema): Schema => {
    const ref = s.$ref;
    if (typeof ref !== 'string') return s;
    const name = ref.replace(/^#\/\$defs\//, '');
    return { ...resolve(defs[name] ?? {}), ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) };
  };

  function check(raw: Schema, v: unknown, path: string, out: SchemaError[]): void {
    const s = resolve(raw);
    const at = (message: string, sub?: string): void => void out.push({ path: sub === undefined ? path : `${path}.${sub}`, message });
    const types = s.type === undefined ? [] : ([] as string[]).concat(s.type as string | string[]);
    if (types.length && !types.some((t) => matchesType(v, t))) return at(`must be ${types.join(' or ')}`);
    if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v)) return at(`must be ${JSON.stringify(s.const)}`);
    if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) return at(`must be one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    if (typeof v === 'number') {
      if (typeof s.minimum === 'number' && v < s.minimum) at(`must be at least ${s.minimum}`);
      if (typeof s.maximum === 'number' && v > s.maximum) at(`must be at most ${s.maximum}`);
    }
    if (typeof v === 'string') {
      const length = [...v].length;
      if (typeof s.minLength === 'number' && length < s.minLength) at(s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters`);
      if (typeof s.maxLength === 'number' && length > s.maxLength) at(`must be at most ${s.maxLength} characters`);
      if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(v)) at('is not in the expected form');
    }
    if (Array.isArray(v) && typeof s.maxItems === 'number' && v.length > s.maxItems) at(`must have at most ${s.maxItems} items`);
    if (Array.isArray(v) && s.items) v.forEach((item, i) => check(s.items as Schema, item, `${path}.${i}`, out));
    if (isObject(v)) {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      for (const name of (s.required ?? []) as string[]) if (!(name in v)) at('is required', name);
      if (typeof s.minProperties === 'number' && Object.keys(v).length < s.minProperties) at('must not be empty');
      for (const [name, item] of Object.entries(v)) {
        if (props[name]) check(props[name], item, `${path}.${name}`, out);
        else if (s.additionalProperties === false) at('is not a field of this step (or of the program)', name);
      }
      for (const [name, needs] of Object.entries((s.dependentRequired ?? {}) as Record<string, string[]>)) {
        if (name in v) for (const need of needs) if (!(need in v)) at(`is only for a step with ${need}`, name);
      }
    }
    if (Array.isArray(s.oneOf)) checkOneOf(s, v, path, out);
  }

  function checkOneOf(s: Schema, v: unknown, path: string, out: SchemaError[]): void {
    const branches = (s.oneOf as Schema[]).map(resolve);
    const discriminator = (s.discriminator as { propertyName?: string } | undefined)?.propertyName;
    if (discriminator && isObject(v)) {
      // The step's `type` picks its branch, so its own mistakes are reported, not one per kind.
      const kinds = branches.map((b) => ((b.properties as Record<string, Schema> | undefined)?.[discriminator] as Schema | undefined)?.const);
      const index = kinds.findIndex((k) => k === v[discriminator]);
      // A missing discriminator is already reported by `required`.
      if (!(discriminator in v)) return;
      if (index < 0) return void out.push({ path: `${path}.${discriminator}`, message: `must be one of ${kinds.join(', ')}` });
      return check(branches[index], v, path, out);
    }
    const passing = branches.filter((b) => {
      const errors: SchemaError[] = [];
      check(b, v, path, errors);
      return errors.length === 0;
    });
    if (passing.length !== 1) out.push({ path, message: passing.length === 0 ? 'matches none of the forms this field takes' : 'matches more than one of the forms this field takes' });
  }

  const out: SchemaError[] = [];
  check(root, value, prefix, out);
  return out;
}
