// Hostile variations of a valid request: wrong types, missing and extra fields, edge and
// out-of-range numbers, huge, empty, unicode and NUL strings, other accounts' ids, deep
// nesting, malformed JSON, bad percent-encoding and over-long path parameters.
import fc from 'fast-check';
import { type FuzzRequest, type Operation, type QueryValue, resourceOfField, resourceOfPath } from './operations.js';
import type { Pools } from './world.js';

type Mutation = (request: FuzzRequest) => fc.Arbitrary<FuzzRequest>;

/** Values put in JSON as written, not as strings: numbers JSON.parse cannot keep, deep nesting. */
const RAW = '\u0001raw:';
const raw = (text: string) => `${RAW}${text}`;
/** JSON text of a body holding raw tokens. */
export function serialise(json: unknown): string {
  return JSON.stringify(json).replace(/"\\u0001raw:((?:[^"\\]|\\.)*)"/g, (_m, text: string) => JSON.parse(`"${text}"`));
}

const deep = (depth: number, open: string, close: string) => raw(open.repeat(depth) + close.repeat(depth));
const DEEP = [deep(100, '[', ']'), deep(1000, '{"a":', '}'), deep(10_000, '[', ']'), deep(20_000, '{"a":', '}')];

const WRONG_TYPES: unknown[] = [null, true, false, 0, -1, 1.5, '', 'text', [], {}, [1, 'a'], { a: 1 }];
const EDGE_NUMBERS: unknown[] = [0, -1, -0, 0.5, 2 ** 31 - 1, 2 ** 31, 65535, 65536, 2 ** 53 - 1, 2 ** 53 + 2, -(2 ** 53), 1e21, 1e308, -1e308, raw('1e999'), raw('-1e999'), raw('1.0'), raw('1e2')];
const EDGE_TEXT: unknown[] = [
  '', ' ', '\t\n', 'x'.repeat(101), 'x'.repeat(70_000), 'é', '漢字', '🙂🙂', '\u202eevil', 'e\u0301', '\u200b', 'a\u0000b', '\u0000',
  '\ud800', 'x\udc00', '../../etc/passwd', "'; drop table users; --", '<script>alert(1)</script>', '%00', 'Default', 'default', '*',
];
const MALFORMED = ['{', '{"name":', '[1,2', '{"a":1,}', 'nul', "{'a':1}", '{"a":"\\x"}', '{"a":1}{"b":2}', '\u0000', '"\\ud800"', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}', '1e999'];
/** JSON text around bytes that are not UTF-8 (a lone continuation byte, an overlong form, a surrogate, 0xFF). */
const INVALID_UTF8: [string, number[], string][] = [
  ['{"name":"', [0x80], '"}'],
  ['{"name":"', [0xc0, 0xaf], '"}'],
  ['{"name":"', [0xed, 0xa0, 0x80], '"}'],
  ['{"description":"', [0xff, 0xfe], '"}'],
];
const BODY_HEADERS: Record<string, string>[] = [
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/x-www-form-urlencoded' },
  { 'content-type': 'application/json; charset=latin1' },
  { 'content-type': 'application/json; charset=utf-8' },
  { 'content-type': 'multipart/form-data; boundary=x' },
  { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  { 'content-type': 'application/json', 'content-encoding': 'identity' },
];
// No `.` or `..` segment (nor %2e): the URL is resolved before routing, so it would address another path.
const PATH_JUNK = ['0', '-1', '1.5', '1e3', 'abc', '%20', '9'.repeat(30), '9007199254740993', '%00', 'a%00b', '%FF', '%ED%A0%80', encodeURIComponent('漢字🙂'), 'x'.repeat(150), '1'.repeat(5000), '..x', '.x'];
const QUERY_JUNK: QueryValue[] = [
  { text: 'abc' }, { text: '1.5' }, { text: '-1' }, { text: '0' }, { text: 'true' }, { text: '' }, { text: '9'.repeat(25) }, { text: 'x'.repeat(100_000) },
  { text: '\u0000' }, { text: '漢字🙂' }, { encoded: '%FF' }, { encoded: '%ED%A0%80' }, { encoded: '%' }, { text: '%_' },
];

/** Paths to every value in a JSON value (up to three levels), for choosing what to change. */
function pathsIn(value: unknown, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  if (depth >= 3 || value === null || typeof value !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_v, i) => i) : Object.keys(value);
  return keys.flatMap((k) => [[...prefix, k], ...pathsIn((value as Record<string | number, unknown>)[k], [...prefix, k], depth + 1)]);
}

function setAt(value: unknown, path: (string | number)[], replacement: unknown, remove = false): unknown {
  // A body that is not an object gets one, so that a field can be set in it.
  const copy = (value !== null && typeof value === 'object' ? structuredClone(value) : {}) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) delete node[last];
  // defineProperty, so that a key such as `__proto__` becomes a plain field of the JSON.
  else Object.defineProperty(node, last, { value: replacement, enumerable: true, writable: true, configurable: true });
  return copy;
}

const withBody = (request: FuzzRequest, mutation: string, body: FuzzRequest['body']): FuzzRequest => ({ ...request, mutation, body });

/** Changes one value of the body (or adds a top-level field) to one of `values`. */
function replaceInBody(name: string, values: fc.Arbitrary<unknown>, topLevel: string[]): Mutation {
  return (request) => {
    const json = request.body && 'json' in request.body ? request.body.json : {};
    const targets = [...pathsIn(json), ...topLevel.map((k) => [k])];
    if (targets.length === 0) return values.map((v) => withBody(request, name, { json: v }));
    return fc.tuple(fc.constantFrom(...targets), values).map(([path, v]) => withBody(request, name, { json: setAt(json, path, v) }));
  };
}

export function mutationsFor(op: Operation, pools: Pools): Mutation[] {
  const mutations: Mutation[] = [];
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const resource = resourceOfPath(op.path);
  if (pathParams.length > 0) {
    const others = resource === 'executionIds' ? pools.otherExecutionIds : resource ? pools.other[resource].map(String) : [];
    const setParam = (name: string, values: string[]): Mutation => (request) =>
      fc.tuple(fc.constantFrom(...pathParams.map((p) => p.name)), fc.constantFrom(...values)).map(([param, v]) => ({ ...request, mutation: name, params: { ...request.params, [param]: v } }));
    if (others.length > 0) mutations.push(setParam('path: another account\'s id', others.map(encodeURIComponent)));
    mutations.push(setParam('path: junk', PATH_JUNK));
  }
  if (queryParams.length > 0) {
    const names = queryParams.map((p) => p.name);
    const setQuery = (name: string, values: fc.Arbitrary<QueryValue>, extraNames: string[] = []): Mutation => (request) =>
      fc.tuple(fc.constantFrom(...names, ...extraNames), values).map(([param, v]) => ({ ...request, mutation: name, query: [...request.query.filter(([n]) => n !== param), [param, v]] }));
    mutations.push(setQuery('query: junk value', fc.constantFrom(...QUERY_JUNK), ['unknown_param']));
    mutations.push(setQuery('query: edge number', fc.constantFrom(...EDGE_NUMBERS.filter((n) => typeof n === 'number').map((n) => ({ text: String(n) })))));
    const idNames = names.filter((n) => resourceOfField(n));
    if (idNames.length > 0) {
      mutations.push((request) =>
        fc.constantFrom(...idNames).chain((param) => {
          const ids = pools.other[resourceOfField(param)!];
          return ids.length ? fc.constantFrom(...ids).map((id) => ({ ...request, mutation: "query: another account's id", query: [...request.query.filter(([n]) => n !== param), [param, { text: String(id) }]] as [string, QueryValue][] })) : fc.constant(request);
        }),
      );
    }
    mutations.push((request) => fc.constantFrom(...request.query.map(([n]) => n), 'x').map((param) => ({ ...request, mutation: 'query: repeated or dropped', query: param === 'x' ? [...request.query, ...request.query] : request.query.filter(([n]) => n !== param) })));
  }
  if (op.takesBody) {
    const topLevel = Object.keys(op.body?.properties ?? {});
    mutations.push(replaceInBody('body: wrong type', fc.constantFrom(...WRONG_TYPES), topLevel));
    mutations.push(replaceInBody('body: edge number', fc.constantFrom(...EDGE_NUMBERS), topLevel));
    mutations.push(replaceInBody('body: edge text', fc.oneof(fc.constantFrom(...EDGE_TEXT), fc.string({ unit: 'binary', maxLength: 12 })), topLevel));
    mutations.push(replaceInBody('body: deep nesting', fc.constantFrom(...DEEP), topLevel));
    mutations.push(replaceInBody('body: extra field', fc.constant('surprise'), ['unknown_field', '__proto__', 'constructor', 'id', 'user_id']));
    mutations.push((request) => {
      const json = request.body && 'json' in request.body ? request.body.json : undefined;
      const keys = json && typeof json === 'object' ? Object.keys(json) : [];
      return keys.length ? fc.constantFrom(...keys).map((k) => withBody(request, 'body: field missing', { json: setAt(json, [k], undefined, true) })) : fc.constant(withBody(request, 'body: field missing', undefined));
    });
    mutations.push((request) => fc.constantFrom(...MALFORMED).map((text) => withBody(request, 'body: malformed JSON', { raw: text })));
    mutations.push((request) => fc.constantFrom<unknown>([], 'text', 42, null, true, [{}]).map((json) => withBody(request, 'body: not an object', { json })));
    mutations.push((request) => fc.constantFrom(undefined, { raw: '' }, { raw: 'x'.repeat(1_100_000) }).map((body) => withBody(request, 'body: empty or too large', body)));
    mutations.push((request) => fc.jsonValue({ maxDepth: 3 }).map((json) => withBody(request, 'body: arbitrary JSON', { json })));
    mutations.push((request) =>
      fc.constantFrom(...INVALID_UTF8).map((bytes) => withBody(request, 'body: invalid UTF-8', { bytes: [...Buffer.from(bytes[0], 'utf8'), ...bytes[1], ...Buffer.from(bytes[2], 'utf8')] })),
    );
    mutations.push((request) => fc.constantFrom(...BODY_HEADERS).map((headers) => ({ ...request, mutation: 'body: content type or encoding', headers, body: request.body ?? { json: {} } })));
    const idFields = topLevel.filter((k) => resourceOfField(k) && pools.other[resourceOfField(k)!].length > 0);
    if (idFields.length > 0) {
      mutations.push((request) =>
        fc.constantFrom(...idFields).chain((field) =>
          fc.constantFrom(...pools.other[resourceOfField(field)!]).map((id) => {
            const json = request.body && 'json' in request.body ? request.body.json : {};
            return withBody(request, "body: another account's id", { json: setAt(json, [field], id) });
          }),
        ),
      );
    }
  }
  return mutations;
}

/** A valid request, or one with one or two mutations. */
export function fuzzRequest(valid: fc.Arbitrary<FuzzRequest>, mutations: Mutation[]): fc.Arbitrary<FuzzRequest> {
  if (mutations.length === 0) return valid;
  const mutated = valid.chain((request) =>
    fc.constantFrom(...mutations).chain((first) =>
      first(request).chain((once) =>
        fc.oneof({ weight: 3, arbitrary: fc.constant(once) }, { weight: 1, arbitrary: fc.constantFrom(...mutations).chain((second) => second(once).map((twice) => ({ ...twice, mutation: `${once.mutation} + ${twice.mutation}` }))) }),
      ),
    ),
  );
  return fc.oneof({ weight: 1, arbitrary: valid }, { weight: 3, arbitrary: mutated });
}
