// What a run executes, pinned when the run is created (decisions.md §10): a code macro's
// current snapshot zip, or a block macro's program as canonical JSON. `bundle_sha` is the
// SHA-256 of exactly these bytes and `code_ref` the snapshot's worktree hash. The bytes are
// copied into `cloud_run_bundles`, so deleting or re-syncing the macro afterwards changes
// nothing for a run in flight; they go when the run record goes.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { ConflictError, ValidationError } from '../../../core/errors.js';
import { currentSnapshotZip } from '../../code-sync/index.js';
import { findOwnedMacro } from '../../macros/index.js';
import { canonicalJson, sha256OfBytes } from '../blocks/canonical-json.js';
import { countSteps } from '../blocks/program-types.js';
import { parseBlockProgram } from '../blocks/validate.js';

type Executor = Kysely<Database> | Transaction<Database>;

export interface MacroBundle {
  kind: 'python' | 'block';
  /** The macro's name when the bundle was read (the run's history keeps it). */
  macroName: string;
  content: Buffer;
  bundleSha: string;
  codeRef: string | null;
  entryPath: string | null;
}

/** 409 `macro_not_runnable` (decisions.md §1). */
export class MacroNotRunnableError extends ConflictError {
  constructor(message: string) {
    super('macro_not_runnable', message);
  }
}

/** What a run of the caller's macro would execute now; 404 when the macro is not theirs, 409 when it cannot run. */
export async function bundleForMacro(db: Executor, userId: number, macroId: number): Promise<MacroBundle> {
  const macro = await findOwnedMacro(db, userId, macroId);
  if (macro.kind === 'block') {
    let program;
    try {
      program = parseBlockProgram(JSON.parse(macro.blocks ?? '[]'), 'blocks');
    } catch (error) {
      if (error instanceof ValidationError) throw new MacroNotRunnableError(`This block macro cannot run: its program is not valid (${error.message}). Fix it with an update.`);
      throw error;
    }
    if (countSteps(program.steps) === 0) throw new MacroNotRunnableError('This block macro cannot run: its program has no steps.');
    const content = Buffer.from(canonicalJson(program));
    return { kind: 'block', macroName: macro.name, content, bundleSha: sha256OfBytes(content), codeRef: null, entryPath: null };
  }
  const snapshot = await currentSnapshotZip(db, userId, macroId);
  if (!snapshot) throw new MacroNotRunnableError('This code macro cannot run: its code was never synced. Upload a code snapshot first.');
  const content = snapshot.zip;
  return { kind: 'python', macroName: macro.name, content, bundleSha: sha256OfBytes(content), codeRef: snapshot.worktreeHash, entryPath: snapshot.entryPath };
}

/** Stores the run's bundle; call it in the transaction that creates the run. */
export async function pinRunBundle(trx: Executor, runId: number, content: Buffer): Promise<void> {
  await trx.insertInto('cloud_run_bundles').values({ run_id: runId, content }).execute();
}

/** `pinRunBundle` for many runs, in one insert. */
export async function pinRunBundles(trx: Executor, bundles: { runId: number; content: Buffer }[]): Promise<void> {
  if (bundles.length === 0) return;
  await trx
    .insertInto('cloud_run_bundles')
    .values(bundles.map((b) => ({ run_id: b.runId, content: b.content })))
    .execute();
}

export async function loadRunBundle(db: Executor, runId: number): Promise<Buffer | undefined> {
  const row = await db.selectFrom('cloud_run_bundles').select('content').where('run_id', '=', runId).executeTakeFirst();
  return row ? Buffer.from(row.content) : undefined;
}
