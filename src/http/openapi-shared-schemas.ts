// Schemas the published description names once, under components, and refers to wherever
// they appear whole. A schema used in many routes (the §16 selector: in block programs, the
// recorder's steps, interrupts) would otherwise be written out in full at every use, and a
// client generated from the description would get as many types as uses.
// Only the published document changes: the route schemas keep the schema inline. A `$id` on
// it would do the same in the document, but the response serializer refuses a `$id` that a
// route's schema holds twice (a recorded step names a selector in two places).
import { isDeepStrictEqual } from 'node:util';

type Json = unknown;

/** The schema as the document writes it: its JSON, without TypeBox's symbol keys. */
const asWritten = (schema: object): Json => JSON.parse(JSON.stringify(schema));

/**
 * Replaces each whole occurrence of a shared schema in the document by a `$ref` to
 * `components.schemas[name]`, and adds the component. A use that changed the schema (another
 * description, a narrower rule) is a different schema and stays as it is.
 */
export function shareSchemas(document: { components?: { schemas?: Record<string, Json> } }, shared: Record<string, object>): void {
  const wanted = Object.entries(shared).map(([name, schema]) => ({ name, written: asWritten(schema) as Record<string, Json>, ref: { $ref: `#/components/schemas/${name}` } }));
  const used = new Set<string>();
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const object = node as Record<string, Json>;
    // A cheap test first: only objects with the shared schema's description are compared whole.
    const match = wanted.find((w) => object.description === w.written.description && isDeepStrictEqual(object, w.written));
    if (match) {
      used.add(match.name);
      return { ...match.ref };
    }
    for (const key of Object.keys(object)) object[key] = visit(object[key]);
    return object;
  };
  for (const key of Object.keys(document)) if (key !== 'components') (document as Record<string, Json>)[key] = visit((document as Record<string, Json>)[key]);
  const components = (document.components ??= {});
  const schemas = (components.schemas ??= {});
  for (const key of Object.keys(schemas)) schemas[key] = visit(schemas[key]);
  for (const w of wanted) if (used.has(w.name)) schemas[w.name] = w.written;
}
