// The shape of src/ (docs/decisions/0005-module-shape.md), checked on its import graph: the
// layers, the modules' front doors, and no cycle between modules. The lint rule checks the
// first two file by file; this test sees the whole graph, which a cycle needs.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, type ImportEdge, readImportGraph } from './helpers/import-graph.js';
import { moduleStateIn } from './helpers/module-state.js';
import { READ_EXCEPTIONS, TABLE_OWNERS } from './helpers/table-owners.js';
import { readTableNames, readTableReads, readTableWrites, type TableWrite } from './helpers/table-writes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The layer of a file: core, lib, db, http, config (config.ts and config/), a module (`modules/<name>`), or the root (main, app, context, …). */
function layerOf(path: string): string {
  const [, top, name] = path.split('/');
  if (top === 'modules') return `modules/${name}`;
  if (top === 'config.ts') return 'config';
  return top.endsWith('.ts') ? 'root' : top;
}

const isModule = (layer: string) => layer.startsWith('modules/');

/**
 * What each layer must not import. `root` is main.ts (the launcher), svc.ts (the command line),
 * app.ts, build-modules.ts and context.ts; the settings (config.ts, each module's in config/)
 * may be read from above lib, and read only core and lib themselves (issue 34 point 3).
 */
const FORBIDDEN: Record<string, (target: string) => boolean> = {
  core: (target) => target !== 'core',
  lib: (target) => isModule(target) || ['http', 'config', 'root'].includes(target),
  config: (target) => !['core', 'lib'].includes(target),
  db: (target) => isModule(target) || ['http', 'root'].includes(target),
  http: (target) => isModule(target) || target === 'root',
  module: (target) => target === 'root',
  // The key commands (`svc runs`, `svc devices`) are clients of the public API, on the SDK.
  cli: (target) => isModule(target) || ['core', 'db', 'http', 'root'].includes(target),
};

/** Known exceptions to the layering rules: none. */
const KNOWN_EDGES: string[] = [];
const KNOWN_CYCLES: string[][] = [];

const label = (edge: ImportEdge) => `${edge.from} -> ${edge.to}`;

function layerViolations(edges: ImportEdge[]): string[] {
  return edges.flatMap((edge) => {
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    const rule = FORBIDDEN[isModule(from) ? 'module' : from];
    return from !== to && rule?.(to) ? [label(edge)] : [];
  });
}

/** An import into another module that is not its index.ts. */
function frontDoorViolations(edges: ImportEdge[]): string[] {
  return edges.flatMap((edge) => {
    const to = layerOf(edge.to);
    return isModule(to) && layerOf(edge.from) !== to && !edge.to.endsWith(`src/${to}/index.ts`) ? [label(edge)] : [];
  });
}

/**
 * A module's services know nothing of HTTP (issue 34 point 3): only the files that put it on
 * HTTP import http/: its routes, its module.ts (which hands the routes over), its guards and
 * the MCP module's transport.
 */
const HTTP_FACING = /\/(routes|[\w-]+-routes?|module|index|[\w-]*guard|transport)\.ts$|\/routes\//;

function serviceToHttpViolations(edges: ImportEdge[]): string[] {
  return edges.flatMap((edge) => (isModule(layerOf(edge.from)) && layerOf(edge.to) === 'http' && !HTTP_FACING.test(edge.from) ? [label(edge)] : []));
}

function moduleCycles(edges: ImportEdge[]): string[][] {
  const between = edges
    .map((edge) => ({ from: layerOf(edge.from), to: layerOf(edge.to) }))
    .filter((edge) => isModule(edge.from) && isModule(edge.to));
  return findCycles(between);
}

describe('the import graph of src/', () => {
  const edges = readImportGraph(ROOT);

  it('is read in full', () => {
    // A reader that silently found nothing would pass every check below.
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({ from: 'src/build-modules.ts', to: 'src/modules/macros/index.ts' });
  });

  it('keeps the layers: core imports no other layer; lib, db and http import no module; nothing imports the composition root', () => {
    const violations = layerViolations(edges).filter((edge) => !KNOWN_EDGES.includes(edge));
    expect(violations).toEqual([]);
  });

  it('lets no module service import http/ (only routes, module.ts, guards and the MCP transport do)', () => {
    expect(serviceToHttpViolations(edges)).toEqual([]);
    // The rule can fail: a planted service file importing http/ is caught.
    expect(serviceToHttpViolations([{ from: 'src/modules/mcp/tool-catalog.ts', to: 'src/http/error-handler.ts' }])).toHaveLength(1);
  });

  it("reaches another module only through its index.ts", () => {
    const violations = frontDoorViolations(edges).filter((edge) => !KNOWN_EDGES.includes(edge));
    expect(violations).toEqual([]);
  });

  it('has no cycle between modules', () => {
    const cycles = moduleCycles(edges).filter((cycle) => !KNOWN_CYCLES.some((known) => known.join() === cycle.join()));
    expect(cycles).toEqual([]);
  });

  it('still needs every listed exception (remove one once its branch has merged)', () => {
    const present = new Set(edges.map(label));
    expect(KNOWN_EDGES.filter((edge) => !present.has(edge))).toEqual([]);
    const cycles = moduleCycles(edges).map((cycle) => cycle.join());
    expect(KNOWN_CYCLES.filter((known) => !cycles.includes(known.join()))).toEqual([]);
  });
});

/** A write (insert, update, delete) to a table from outside its owning module. */
function foreignWrites(writes: TableWrite[]): string[] {
  return writes.filter((w) => TABLE_OWNERS[w.table] !== layerOf(w.file)).map((w) => `${w.file} writes ${w.table} (owner: ${TABLE_OWNERS[w.table] ?? 'none listed'})`);
}

/** Every read (select, join) of a table from outside its owning module, as `file table`. */
function allForeignReads(reads: TableWrite[]): string[] {
  return reads.filter((r) => r.table in TABLE_OWNERS && TABLE_OWNERS[r.table] !== layerOf(r.file)).map((r) => `${r.file} ${r.table}`);
}

const excepted = (read: string, exceptions: Record<string, string>) => read in exceptions || `${read.split(' ')[0]} *` in exceptions;

/** A read of a table from outside its owning module, unless it is a listed exception. */
function foreignReads(reads: TableWrite[], exceptions: Record<string, string> = READ_EXCEPTIONS): string[] {
  return allForeignReads(reads).filter((read) => !excepted(read, exceptions));
}

describe('the tables of src/db/schema.ts', () => {
  const writes = readTableWrites(ROOT);
  const reads = readTableReads(ROOT);

  it('are each listed with one owner', () => {
    const tables = readTableNames(ROOT);
    expect(tables.length).toBeGreaterThan(25);
    expect(tables.filter((table) => !(table in TABLE_OWNERS))).toEqual([]);
    expect(Object.keys(TABLE_OWNERS).filter((table) => !tables.includes(table))).toEqual([]);
  });

  it('are written only by their owning module', () => {
    // A reader that silently found nothing would pass.
    expect(writes.length).toBeGreaterThan(35);
    expect(writes).toContainEqual({ file: 'src/modules/executions/history.ts', table: 'executions' });
    expect(foreignWrites(writes)).toEqual([]);
  });

  it('are read only by their owning module, but for the listed exceptions', () => {
    expect(reads.length).toBeGreaterThan(60);
    expect(reads).toContainEqual({ file: 'src/modules/executions/service.ts', table: 'executions' });
    expect(foreignReads(reads)).toEqual([]);
  });

  it('still need every listed read exception, each with its reason (remove one once its read goes through the owner)', () => {
    const foreign = allForeignReads(reads);
    const used = (exception: string) => (exception.endsWith(' *') ? foreign.some((read) => read.startsWith(exception.slice(0, -1))) : foreign.includes(exception));
    expect(Object.keys(READ_EXCEPTIONS).filter((exception) => !used(exception))).toEqual([]);
    expect(Object.entries(READ_EXCEPTIONS).filter(([, reason]) => reason.trim().length < 20 || reason.includes('\n'))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('find a foreign write, and allow the owner', () => {
    const writes = [
      { file: 'src/modules/runs/job/run-transitions.ts', table: 'executions' },
      { file: 'src/modules/executions/history.ts', table: 'executions' },
      { file: 'src/modules/images/service.ts', table: 'no_such_table' },
    ];
    expect(foreignWrites(writes)).toEqual([
      'src/modules/runs/job/run-transitions.ts writes executions (owner: modules/executions)',
      'src/modules/images/service.ts writes no_such_table (owner: none listed)',
    ]);
  });

  it('find a foreign read, and allow the owner and the exceptions', () => {
    const reads = [
      { file: 'src/modules/marketplace/new-thing.ts', table: 'cloud_runs' },
      { file: 'src/modules/runs/job/run-transitions.ts', table: 'cloud_runs' },
      { file: 'src/db/locks.ts', table: 'users' },
      { file: 'src/modules/marketplace/trust.ts', table: 'executions' },
      { file: 'src/modules/marketplace/trust.ts', table: 'macros' },
      { file: 'src/modules/images/service.ts', table: 'not_a_table' },
    ];
    const exceptions = { 'src/db/locks.ts *': 'row locks', 'src/modules/marketplace/trust.ts executions': 'a planted exception' };
    expect(foreignReads(reads, exceptions)).toEqual(['src/modules/marketplace/new-thing.ts cloud_runs', 'src/modules/marketplace/trust.ts macros']);
  });

  const edge = (from: string, to: string) => ({ from, to });

  it('find a module-level registry, and leave constants alone', () => {
    const text = [
      'const subscribers = new Map<string, EventSubscriber>();',
      'export const handlers: Handler[] = [];',
      'let current: Handler | undefined;',
      "const emitter = new EventEmitter();",
      "const KINDS = new Set(['a', 'b']);",
      'function f() {\n  const local = new Map();\n}',
    ].join('\n');
    expect(moduleStateIn('x.ts', text).map((state) => state.name).sort()).toEqual(['current', 'emitter', 'handlers', 'subscribers']);
  });

  it('find a cycle, however long, and ignore a chain', () => {
    expect(findCycles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')])).toEqual([['a', 'b', 'c']]);
    expect(findCycles([edge('a', 'b'), edge('b', 'c'), edge('a', 'c')])).toEqual([]);
  });

  it('refuse a deep import, a layer breach and a module cycle', () => {
    const bad = [
      edge('src/modules/runs/service.ts', 'src/modules/macros/service.ts'),
      edge('src/core/paging.ts', 'src/db/schema.ts'),
      edge('src/http/guards/install.ts', 'src/modules/accounts/index.ts'),
      edge('src/modules/macros/service.ts', 'src/app.ts'),
      edge('src/modules/macros/index.ts', 'src/modules/runs/index.ts'),
      edge('src/cli/runs.ts', 'src/modules/runs/index.ts'),
      edge('src/cli/runs.ts', 'src/core/errors.ts'),
      edge('src/config.ts', 'src/modules/devices/index.ts'),
      edge('src/config/runs.ts', 'src/http/module.ts'),
      edge('src/lib/clock.ts', 'src/config.ts'),
    ];
    expect(frontDoorViolations(bad)).toEqual([label(bad[0])]);
    expect(layerViolations(bad)).toEqual([label(bad[1]), label(bad[2]), label(bad[3]), label(bad[5]), label(bad[6]), label(bad[7]), label(bad[8]), label(bad[9])]);
    expect(moduleCycles(bad)).toEqual([['modules/macros', 'modules/runs']]);
  });

  it('allow what the shape allows', () => {
    const good = [
      edge('src/modules/runs/service.ts', 'src/modules/macros/index.ts'),
      edge('src/modules/runs/service.ts', 'src/config.ts'),
      edge('src/modules/runs/service.ts', 'src/modules/runs/schemas.ts'),
      edge('src/http/route-auth.ts', 'src/core/context.ts'),
      edge('src/lib/crypto.ts', 'src/core/errors.ts'),
      edge('src/app.ts', 'src/modules/runs/index.ts'),
      edge('src/cli/runs.ts', 'src/lib/cli-error.ts'),
      edge('src/cli/runs.ts', 'src/config.ts'),
      edge('src/config.ts', 'src/config/runs.ts'),
      edge('src/config/runs.ts', 'src/lib/run-user.ts'),
      edge('src/modules/runs/runner/python-run.ts', 'src/config.ts'),
    ];
    expect([...frontDoorViolations(good), ...layerViolations(good)]).toEqual([]);
  });
});
