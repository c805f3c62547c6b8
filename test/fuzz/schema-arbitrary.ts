// Values that satisfy a JSON Schema from the published document, as fast-check arbitraries.
// Covers the subset our route schemas use (types and type lists, enum, const, bounds,
// lengths, patterns, formats, objects, arrays, anyOf/oneOf, $ref to components). Fields
// that name a resource draw the caller's real ids, so valid requests reach the handlers.
import fc from 'fast-check';

export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  minProperties?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
};

export interface GenContext {
  /** Follows `#/components/schemas/X`. */
  resolve(ref: string): Schema;
  /** The caller's ids for a field that names a resource (macro_id, device_id, …); undefined if it names none. */
  idsFor(field: string): number[] | undefined;
  /** A domain value for a field where random text would never pass (URLs, hosts, zips). */
  special(field: string): fc.Arbitrary<unknown> | undefined;
}

/** Keeps generated text short: long strings are the mutations' job. */
const TEXT_CAP = 24;

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? TEXT_CAP, TEXT_CAP));
  switch (schema.format) {
    case 'date-time':
      return fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= (schema.maxLength ?? 254));
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
  }
  if (schema.pattern) {
    const withinLength = (s: string) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity);
    return fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' }).filter(withinLength);
  }
  return fc.string({ minLength, maxLength });
}

function integerArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1000;
  const max = schema.maximum ?? 1_000_000;
  // Mostly small values near the lower bound, where the interesting rows are.
  return fc.oneof({ weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 50) }) }, { weight: 1, arbitrary: fc.integer({ min, max }) });
}

function objectArbitrary(schema: Schema, ctx: GenContext): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, valueFor(sub, ctx, name)]));
  const requiredKeys = (schema.required ?? []).filter((k) => k in model);
  let arbitrary: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys });
  if (typeof schema.additionalProperties === 'object' || (schema.additionalProperties === true && Object.keys(properties).length === 0)) {
    const extra = typeof schema.additionalProperties === 'object' ? valueFor(schema.additionalProperties, ctx) : fc.jsonValue({ maxDepth: 2 });
    const keys = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/).filter((k) => !(k in properties));
    arbitrary = fc.tuple(arbitrary, fc.dictionary(keys, extra, { maxKeys: 3 })).map(([known, more]) => ({ ...more, ...known }));
  }
  const minProperties = schema.minProperties ?? 0;
  return minProperties > 0 ? arbitrary.filter((o) => Object.keys(o).length >= minProperties) : arbitrary;
}

function arrayArbitrary(schema: Schema, ctx: GenContext, field: string): fc.Arbitrary<unknown[]> {
  const items = valueFor(schema.items ?? {}, ctx, field.replace(/s$/, ''));
  const minLength = schema.minItems ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
  return schema.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength });
}

function ofType(type: string, schema: Schema, ctx: GenContext, field: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayArbitrary(schema, ctx, field);
    case 'object':
      return objectArbitrary(schema, ctx);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value valid for `schema`; `field` is the property name it sits under, if any. */
export function valueFor(schema: Schema, ctx: GenContext, field = ''): fc.Arbitrary<unknown> {
  if (schema.$ref) return valueFor(ctx.resolve(schema.$ref), ctx, field);
  const special = field ? ctx.special(field) : undefined;
  if (special) return special;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    // Each branch inherits what the parent states beside it (`type: string` with format branches).
    const parent: Schema = { ...schema, anyOf: undefined, oneOf: undefined };
    return fc.oneof(...branches.map((branch) => valueFor({ ...parent, ...branch }, ctx, field)));
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const ids = field ? ctx.idsFor(field) : undefined;
  if (ids && ids.length > 0 && types.includes('integer')) {
    const others = types.filter((t) => t !== 'integer').map((t) => ofType(t, schema, ctx, field));
    return fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: integerArbitrary(schema) }, ...others.map((arbitrary) => ({ weight: 1, arbitrary })));
  }
  if (types.length === 0) return schema.properties ? objectArbitrary(schema, ctx) : fc.jsonValue({ maxDepth: 3 });
  if (types.length === 1) return ofType(types[0], schema, ctx, field);
  return fc.oneof(...types.map((t) => ofType(t, schema, ctx, field)));
}
