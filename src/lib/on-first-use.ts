// Made when first needed, not when declared. Compiling every JSON Schema of the service up front
// (route validators and serializers, tool arguments, the block program) took about 0.8 s of each
// start (issue 34 point 4), and a given process uses few of them: a request compiles its route's
// schemas once, on the first call, in a few milliseconds.

/** A value made on the first call and kept. */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** An Ajv-style validator: a function answering true or false that leaves its errors on itself. */
export interface Validator<Errors = unknown> {
  (data: unknown): boolean;
  errors?: Errors[] | null;
}

/** A validator compiled on its first call; its errors are copied on itself, where Ajv's callers read them. */
export function validatorOnFirstUse<Errors>(compile: () => Validator<Errors>): Validator<Errors> {
  const compiled = onFirstUse(compile);
  const validate: Validator<Errors> = (data) => {
    const inner = compiled();
    const valid = inner(data);
    validate.errors = inner.errors;
    return valid;
  };
  return validate;
}

/** A serializer compiled on its first call. */
export function serializerOnFirstUse<Data>(compile: () => (data: Data) => string): (data: Data) => string {
  const compiled = onFirstUse(compile);
  return (data) => compiled()(data);
}
