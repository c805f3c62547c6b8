// A project as text files, for callers that hold code rather than a zip (the authoring agent,
// the recorder, macro_install_code): zipped and hashed here into the same upload as `svc code
// push` (the service installs it, so every check of an upload applies); and a macro's current
// code read back as files.
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import type { Database } from '../../db/schema.js';
import { findOwnedMacro } from '../macros/index.js';
import { worktreeHash } from './hash.js';
import type { SnapshotUpload } from './schemas.js';
import { zipWorktree } from './worktree.js';
import { currentSnapshotOf, visitSnapshotFiles } from './shared-code.js';

export interface TextFile {
  path: string;
  content: string;
}

/** Text files to install, with the entry a run starts (default: code sync picks it, §5). */
export interface InstallFilesInput {
  macro_id: number;
  files: readonly TextFile[];
  entry_path?: string;
}

/** The upload of the files: zipped with fixed timestamps (so the same files give the same zip) and hashed. */
export async function textFilesUpload(input: Omit<InstallFilesInput, 'macro_id'>): Promise<SnapshotUpload> {
  const files = input.files.map((f) => ({ path: f.path, content: Buffer.from(f.content, 'utf8'), permissions: 0o644 }));
  const zip = await zipWorktree(files);
  return { zip_file_base64: zip.toString('base64'), worktree_hash: worktreeHash(files), ...(input.entry_path ? { entry_path: input.entry_path } : {}) };
}

/** The macro's current code as UTF-8 text files; empty when it never synced. 404 for someone else's macro. */
export async function currentTextFiles(db: Kysely<Database>, ctx: Pick<ServiceContext, 'userId'>, macroId: number): Promise<TextFile[]> {
  const macro = await findOwnedMacro(db, ctx.userId, macroId);
  if (macro.kind !== 'python') throw new NotFoundError('This macro is a block macro; only code (python) macros have code.');
  const snapshot = await currentSnapshotOf(db, ctx.userId, macroId);
  if (!snapshot) return [];
  const files: TextFile[] = [];
  await visitSnapshotFiles(db, snapshot.zipSha256, async (path, data) => {
    const chunks: Buffer[] = [];
    for await (const chunk of data) chunks.push(chunk);
    files.push({ path, content: Buffer.concat(chunks).toString('utf8') });
  });
  return files;
}
