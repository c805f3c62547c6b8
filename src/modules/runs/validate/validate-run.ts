// What would stop a run, or make it run wrong, found without running it (decisions.md §12):
// no code, a missing entry, an invalid block program, image ids the caller's library lacks,
// arguments the profile does not define, a device that is not a cloud device. Someone else's
// macro or device is not found, as everywhere. The tool server's run_validate calls it.
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../../core/context.js';
import { AppError } from '../../../core/errors.js';
import type { Database } from '../../../db/schema.js';
import type { CodeSyncService } from '../../code-sync/index.js';
import { findOwnedDevice } from '../../devices/index.js';
import type { ImageLibrary } from '../../images/index.js';
import { findOwnedMacro } from '../../macros/index.js';
import { CLI_ARGS_KEY } from '../arguments/merge.js';
import { loadProfileArgs } from '../arguments/profile-args.js';
import { countSteps, type Step } from '../blocks/program-types.js';
import { normalizeBlocks, validateBlockProgram } from '../blocks/validate.js';

export interface RunProblem {
  code: string;
  message: string;
  path?: string;
}

export interface ValidateRunInput {
  macro_id: number;
  device_id?: number;
  args?: Record<string, unknown>;
}

export interface RunValidationDeps {
  db: Kysely<Database>;
  /** The image library: which of the program's image ids the caller owns. */
  images: Pick<ImageLibrary, 'ownedIds'>;
  /** The macro's synced code: whether it names an entry. */
  codeSync: Pick<CodeSyncService, 'state'>;
}

function imageIds(steps: Step[], path: string): { id: string; path: string }[] {
  return steps.flatMap((step, i) => {
    const here = `${path}.${i}`;
    const own = (step.type === 'tap' && 'image_id' in step) || step.type === 'if_image' ? [{ id: step.image_id, path: `${here}.image_id` }] : [];
    const children =
      step.type === 'repeat' ? imageIds(step.steps, `${here}.steps`) : step.type === 'if_text' || step.type === 'if_image' ? [...imageIds(step.then, `${here}.then`), ...imageIds(step.else ?? [], `${here}.else`)] : [];
    return [...own, ...children];
  });
}

async function blockProblems(deps: RunValidationDeps, ctx: ServiceContext, blocks: string | null): Promise<RunProblem[]> {
  const program = normalizeBlocks(JSON.parse(blocks ?? '[]') as unknown);
  const invalid = validateBlockProgram(program, 'blocks');
  if (invalid.length > 0) return invalid.map((e) => ({ code: 'invalid_block_program', path: e.path, message: `${e.path} ${e.message}` }));
  const steps = (program as { steps: Step[] }).steps;
  if (countSteps(steps) === 0) return [{ code: 'macro_not_runnable', message: 'The block program has no steps, so it cannot run.' }];
  const uses = imageIds(steps, 'blocks.steps');
  if (uses.length === 0) return [];
  const owned = await deps.images.ownedIds(ctx.userId, uses.map((u) => u.id));
  return uses.filter((u) => !owned.has(u.id)).map((u) => ({ code: 'unknown_image', path: u.path, message: `${u.path}: no image ${u.id} in your image library.` }));
}

async function codeProblems(deps: RunValidationDeps, ctx: ServiceContext, macroId: number): Promise<RunProblem[]> {
  try {
    const state = await deps.codeSync.state(ctx, { id: macroId });
    return state.entry_path ? [] : [{ code: 'entry_missing', message: 'The synced code names no entry file; sync it again with entry_path.' }];
  } catch (error) {
    if (error instanceof AppError && error.code === 'code_not_synced') return [{ code: 'code_not_synced', message: 'The code of this macro was never synced; push it (svc code push) before running.' }];
    throw error;
  }
}

async function validateRun(deps: RunValidationDeps, ctx: ServiceContext, input: ValidateRunInput) {
  const macro = await findOwnedMacro(deps.db, ctx.userId, input.macro_id);
  const problems: RunProblem[] = [];
  let followedProfileId: number | null = null;
  if (input.device_id !== undefined) {
    const device = await findOwnedDevice(deps.db, ctx.userId, input.device_id);
    if (device.is_hosted !== 1) problems.push({ code: 'not_a_cloud_device', message: `Device ${device.id} is a local device; runs here need a cloud device.` });
    followedProfileId = device.profile_id;
  }
  problems.push(...(macro.kind === 'block' ? await blockProblems(deps, ctx, macro.blocks) : await codeProblems(deps, ctx, macro.id)));
  if (input.args) {
    // The profile the run would use: the device's when it follows this macro, else the Default.
    const profile = await loadProfileArgs(deps.db, { userId: ctx.userId, macroId: macro.id, followedProfileId });
    for (const name of Object.keys(input.args)) {
      if (name !== CLI_ARGS_KEY && !(name in profile.args)) {
        problems.push({ code: 'unknown_argument', path: `args.${name}`, message: `The argument ${name} is not defined by the ${profile.profileId === null ? 'macro (it has no settings profile)' : 'settings profile the run would use'}.` });
      }
    }
  }
  return { macro_id: macro.id, kind: macro.kind, ok: problems.length === 0, problems };
}

export interface RunValidation {
  validateRun(ctx: ServiceContext, input: ValidateRunInput): ReturnType<typeof validateRun>;
}

/** The run checks, built where the image library and code sync are (build-modules.ts). */
export function runValidation(deps: RunValidationDeps): RunValidation {
  return { validateRun: (ctx, input) => validateRun(deps, ctx, input) };
}
