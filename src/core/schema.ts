// Small TypeBox builders shared by route schemas.
import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';

/** A string restricted to `values`, as a plain JSON Schema enum (one clear error message). */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * The schema or null. A scalar becomes a type array (`["string", "null"]`, valid JSON Schema
 * and OpenAPI 3.1) rather than `anyOf`: fast-json-stringify must validate every value
 * against each `anyOf` branch to serialise it, which costs more than the rest of a request.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type, enum: values } = schema as { type?: unknown; enum?: unknown };
  if (typeof type === 'string' && type !== 'object' && type !== 'array') {
    // An enum must list null too, or `enum` refuses what `type` lets through.
    return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'], ...(Array.isArray(values) ? { enum: [...values, null] } : {}) });
  }
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
}

export const DateTime = (options: Record<string, unknown> = {}) => Type.String({ format: 'date-time', ...options });

/**
 * An identifier. Bounded to JavaScript's safe integers so an absurd id is a 422, never an
 * out-of-range error from PostgreSQL (a 500) or a silently rounded number.
 */
export const Id = (description = 'Identifier') => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

export const IdParams = Type.Object({ id: Id() });

/** A service input naming one record by its id. */
export type IdInput = Static<typeof IdParams>;

/** The error envelope every failure uses. */
export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    details: Type.Object({ code: Type.String() }, { additionalProperties: true }),
  },
  { $id: 'Error', description: 'Error envelope: a sentence to act on, and a machine-readable code.' },
);

export const ErrorRef = Type.Ref('Error');

/** Error responses a route documents, keyed by status. */
export function errors(...statuses: number[]): Record<number, typeof ErrorRef> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorRef]));
}
