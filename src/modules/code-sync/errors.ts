// Why an upload was refused. Each refusal is a 422 `validation_failed` naming the field, so a
// client handles it like any other validation error; `reason` lets a script tell them apart.
import { AppError, type ErrorDetails } from '../../core/errors.js';

export type RefusalReason =
  | 'invalid_base64'
  | 'zip_too_large'
  | 'not_a_zip'
  | 'damaged_zip'
  | 'unsupported_entry'
  | 'unsafe_path'
  | 'absolute_path'
  | 'parent_segment'
  | 'link'
  | 'special_file'
  | 'too_many_files'
  | 'too_large_uncompressed'
  | 'duplicate_path'
  | 'no_python_file'
  | 'entry_not_found'
  | 'hash_mismatch';

export class SnapshotRefusedError extends AppError {
  constructor(
    reason: RefusalReason,
    field: 'zip_file_base64' | 'entry_path' | 'worktree_hash',
    problem: string,
    extra: ErrorDetails = {},
  ) {
    super(422, 'validation_failed', `The snapshot was refused: body.${field} ${problem}.`, {
      errors: [{ path: `body.${field}`, message: problem }],
      error_count: 1,
      reason,
      ...extra,
    });
  }
}

/** A refusal about the zip itself. */
export const zipRefused = (reason: RefusalReason, problem: string, extra: ErrorDetails = {}) =>
  new SnapshotRefusedError(reason, 'zip_file_base64', problem, extra);
