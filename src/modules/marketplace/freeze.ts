// What a new version freezes from the author's macro, read and checked before anything is
// written: a code macro's current snapshot (by its zip's hash; the bytes are shared, never
// copied), or a block macro's program as canonical JSON; the Default arguments; the image
// ids referenced. Publishing refuses a macro with nothing runnable, and any secret.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ValidationError } from '../../core/errors.js';
import { currentSnapshotOf, imageIdsOfSnapshot, visitSnapshotFiles } from '../code-sync/index.js';
import { findOwnedMacro } from '../macros/index.js';
import { readDefaultArgs } from '../profiles/index.js';
import { canonicalJson, countSteps, parseBlockProgram, type Step } from '../runs/index.js';
import { notPublishable, SecretFoundError } from './errors.js';
import { MAX_FINDINGS, type SecretFinding, SecretScanner, scanValue } from './secret-scan.js';

export interface FrozenContent {
  kind: 'python' | 'block';
  worktreeHash: string | null;
  entryPath: string | null;
  sizeBytes: number | null;
  fileCount: number | null;
  zipSha256: string | null;
  blocks: string | null;
  bundleSha: string | null;
  /** JSON of the Default arguments. */
  args: string;
  imageIds: string[];
}

/** The image ids a program's `tap` and `if_image` steps name, once each, in program order. */
function programImageIds(steps: readonly Step[], into: string[] = []): string[] {
  for (const step of steps) {
    if ('image_id' in step && typeof step.image_id === 'string' && !into.includes(step.image_id)) into.push(step.image_id);
    for (const nested of [('steps' in step ? step.steps : undefined), ('then' in step ? step.then : undefined), ('else' in step ? step.else : undefined)]) {
      if (Array.isArray(nested)) programImageIds(nested as Step[], into);
    }
  }
  return into;
}

export async function freezeMacro(db: Kysely<Database>, userId: number, macroId: number): Promise<FrozenContent> {
  const macro = await findOwnedMacro(db, userId, macroId);
  const findings: SecretFinding[] = [];
  if (macro.kind === 'block') {
    let program;
    try {
      program = parseBlockProgram(JSON.parse(macro.blocks ?? '[]'), 'blocks');
    } catch (error) {
      if (error instanceof ValidationError) throw notPublishable(`This block macro cannot be published: its program is not valid (${error.message})`);
      throw error;
    }
    if (countSteps(program.steps) === 0) throw notPublishable('This block macro cannot be published: its program has no steps.');
    scanValue('blocks', program, findings);
    if (findings.length > 0) throw new SecretFoundError(findings);
    const blocks = canonicalJson(program);
    return {
      kind: 'block',
      worktreeHash: null,
      entryPath: null,
      sizeBytes: null,
      fileCount: null,
      zipSha256: null,
      blocks,
      bundleSha: createHash('sha256').update(blocks).digest('hex'),
      args: '{}',
      imageIds: programImageIds(program.steps),
    };
  }
  const snapshot = await currentSnapshotOf(db, userId, macroId);
  if (!snapshot) throw notPublishable('This code macro cannot be published: its code was never synced. Upload a code snapshot first.');
  await visitSnapshotFiles(db, snapshot.zipSha256, async (path, data) => {
    const scanner = new SecretScanner(path, findings);
    for await (const chunk of data) if (findings.length < MAX_FINDINGS) scanner.push(chunk);
    scanner.end();
  });
  const args = await readDefaultArgs(db, userId, macroId);
  scanValue('args', args, findings);
  if (findings.length > 0) throw new SecretFoundError(findings);
  return {
    kind: 'python',
    worktreeHash: snapshot.worktreeHash,
    entryPath: snapshot.entryPath,
    sizeBytes: snapshot.sizeBytes,
    fileCount: snapshot.fileCount,
    zipSha256: snapshot.zipSha256,
    blocks: null,
    bundleSha: null,
    args: JSON.stringify(args),
    imageIds: await imageIdsOfSnapshot(db, snapshot.zipSha256),
  };
}
