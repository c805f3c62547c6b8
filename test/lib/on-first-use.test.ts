import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { onFirstUse, serializerOnFirstUse, validatorOnFirstUse } from '../../src/lib/on-first-use.js';
import { packageOnDemand } from '../../src/lib/package-on-demand.js';

describe('made on first use', () => {
  test('a value is made once, on the first call, not when declared', () => {
    let made = 0;
    const value = onFirstUse(() => ({ n: ++made }));
    expect(made).toBe(0);
    expect(value()).toBe(value());
    expect(made).toBe(1);
  });

  test('a validator compiles on its first call and leaves each call’s errors on itself, as Ajv’s does', () => {
    let compiled = 0;
    const validate = validatorOnFirstUse(() => {
      compiled++;
      return new Ajv({ allErrors: true }).compile({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } });
    });
    expect(compiled).toBe(0);
    expect(validate({})).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'required' });
    expect(validate({ name: 'x' })).toBe(true);
    expect(validate.errors).toBeNull();
    expect(compiled).toBe(1);
  });

  test('a serializer compiles on its first call', () => {
    let compiled = 0;
    const serialize = serializerOnFirstUse((): ((data: { a: number }) => string) => {
      compiled++;
      return (data) => JSON.stringify(data);
    });
    expect(compiled).toBe(0);
    expect(serialize({ a: 1 })).toBe('{"a":1}');
    serialize({ a: 2 });
    expect(compiled).toBe(1);
  });

  test('a package on demand is the module require gives, loaded once', () => {
    const yazl = packageOnDemand<{ ZipFile: unknown }>('yazl');
    expect(yazl()).toBe(yazl());
    expect(typeof yazl().ZipFile).toBe('function');
    expect(() => packageOnDemand('no-such-package-here')()).toThrow(/Cannot find module/);
  });
});
