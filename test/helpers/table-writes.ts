// Reads which tables the files of src/ write, for the table-owner rule of
// test/architecture.test.ts: Kysely's insertInto / updateTable / deleteFrom / replaceInto /
// mergeInto with a table named by a literal, and INSERT / UPDATE / DELETE in sql`` templates.
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

/** Every write found in src/ (migrations aside: they create the tables), one entry per file and table. */
export function readTableWrites(root: string): TableWrite[] {
  const found = new Map<string, TableWrite>();
  for (const path of sourceFiles(join(root, 'src'))) {
    const file = relative(root, path).split('\\').join('/');
    const text = readFileSync(path, 'utf8');
    for (const pattern of [KYSELY_WRITE, SQL_WRITE]) {
      for (const match of text.matchAll(pattern)) found.set(`${file} ${match[1]}`, { file, table: match[1].toLowerCase() });
    }
  }
  return [...found.values()];
}

/** The table names of the `Database` interface in src/db/schema.ts. */
export function readTableNames(root: string): string[] {
  const text = readFileSync(join(root, 'src/db/schema.ts'), 'utf8');
  const body = /export interface Database \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return [...body.matchAll(/^\s*([a-z_]+):/gm)].map((match) => match[1]);
}
