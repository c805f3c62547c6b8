// Reads which tables the files of src/ write and read, for the table-owner rules of
// test/architecture.test.ts. Writes: Kysely's insertInto / updateTable / deleteFrom /
// replaceInto / mergeInto with a table named by a literal, and INSERT / UPDATE / DELETE in sql``
// templates. Reads: selectFrom and the joins with a literal table, and FROM / JOIN in sql``.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface TableWrite {
  /** Relative to the repository, like src/modules/runs/start-run.ts. */
  file: string;
  table: string;
}

const KYSELY_WRITE = /\.(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"`]([a-z_]+)(?:\s+as\s+\w+)?['"`]/g;
const SQL_WRITE = /sql`[^`]*?\b(?:insert\s+into|update|delete\s+from)\s+"?([a-z_]+)"?/gi;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const KYSELY_READ = /\.(?:selectFrom|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*['"`]([a-z_]+)(?:\s+as\s+\w+)?['"`]/g;
const SQL_TEMPLATE = /sql`([^`]*)`/g;
const SQL_READ = /\b(?:from|join)\s+"?([a-z_]+)"?/gi;

/** Matches of `patterns` in src/ (migrations aside: they create the tables), one entry per file and table. */
function tablesNamed(root: string, find: (text: string) => Iterable<string>): TableWrite[] {
  const found = new Map<string, TableWrite>();
  for (const path of sourceFiles(join(root, 'src'))) {
    const file = relative(root, path).split('\\').join('/');
    for (const table of find(readFileSync(path, 'utf8'))) found.set(`${file} ${table}`, { file, table: table.toLowerCase() });
  }
  return [...found.values()];
}

/** Every write found in src/, one entry per file and table. */
export function readTableWrites(root: string): TableWrite[] {
  return tablesNamed(root, (text) => [KYSELY_WRITE, SQL_WRITE].flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1])));
}

/** Every read found in src/ (a select or a join), one entry per file and table; words after FROM that are no table are the caller's to ignore. */
export function readTableReads(root: string): TableWrite[] {
  return tablesNamed(root, (text) => [
    ...[...text.matchAll(KYSELY_READ)].map((match) => match[1]),
    ...[...text.matchAll(SQL_TEMPLATE)].flatMap((template) => [...template[1].matchAll(SQL_READ)].map((match) => match[1])),
  ]);
}

/** The table names of the `Database` interface in src/db/schema.ts. */
export function readTableNames(root: string): string[] {
  const text = readFileSync(join(root, 'src/db/schema.ts'), 'utf8');
  const body = /export interface Database \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return [...body.matchAll(/^\s*([a-z_]+):/gm)].map((match) => match[1]);
}
