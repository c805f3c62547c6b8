// The §16 selector is written once in the published description, under components, and named
// by $ref at every whole use; a changed copy stays inline; the routes still validate with the
// schema inline (only the document changed).
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shareSchemas } from '../../src/http/openapi-shared-schemas.js';
import { Selector } from '../../src/modules/devices/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Node = Record<string, unknown>;

/** Every object in a JSON value, depth first. */
function* objects(value: unknown): Generator<Node> {
  if (Array.isArray(value)) for (const item of value) yield* objects(item);
  else if (value !== null && typeof value === 'object') {
    yield value as Node;
    for (const child of Object.values(value)) yield* objects(child);
  }
}

const written = JSON.parse(JSON.stringify(Selector)) as Node;

describe('the served description', () => {
  let t: TestApp;
  let doc: { paths: Node; components: { schemas: Record<string, unknown> } };
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.app.inject({ url: '/openapi.json' })).json();
  });
  afterAll(() => t.close());

  test('names the selector once under components and refers to it everywhere else', () => {
    expect(doc.components.schemas.Selector).toEqual(written);
    const refs = [...objects(doc.paths)].filter((o) => o.$ref === '#/components/schemas/Selector');
    // Block programs, interrupts, locator tools' bodies, recorded steps: dozens of uses.
    expect(refs.length).toBeGreaterThan(20);
    const copies = [...objects({ paths: doc.paths, schemas: { ...doc.components.schemas, Selector: null } })].filter((o) => isDeepStrictEqual(o, written));
    expect(copies).toEqual([]);
  });
});

describe('shareSchemas', () => {
  test('a whole use becomes a $ref, also inside other components; a changed copy stays; an unused schema adds no component', () => {
    const changed = { ...written, description: 'Only the first match' };
    const document = {
      paths: { '/a': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { s: structuredClone(written), t: changed } } } } } } } },
      components: { schemas: { Step: { type: 'object', properties: { when: structuredClone(written) } } } as Record<string, unknown> },
    };
    shareSchemas(document, { Selector, Other: { type: 'string', description: 'never used' } });
    const body = document.paths['/a'].post.requestBody.content['application/json'].schema.properties as Node;
    expect(body.s).toEqual({ $ref: '#/components/schemas/Selector' });
    expect(body.t).toEqual(changed);
    expect(document.components.schemas.Step).toEqual({ type: 'object', properties: { when: { $ref: '#/components/schemas/Selector' } } });
    expect(document.components.schemas.Selector).toEqual(written);
    expect(Object.keys(document.components.schemas).sort()).toEqual(['Selector', 'Step']);
  });
});
