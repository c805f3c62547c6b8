import { type Static, Type } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.js';
import { SNAPSHOT_WARNING_CODES } from '../../core/values.js';

const Hash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'sha256 hex of the manifest (docs/code-sync.md), lowercase' });

export const SnapshotBody = Type.Object(
  {
    // No pattern and no length bounds: Ajv would walk all 14 MB of it character by character.
    // The service decodes strictly and says what is wrong in plain words.
    zip_file_base64: Type.String({ description: 'The project tree as a zip (at most 10 MiB), standard padded base64' }),
    worktree_hash: Hash,
    entry_path: Type.Optional(
      Type.String({ maxLength: 1024, description: 'File to run; must be in the zip. Empty or absent: src/app.py, else the main.py closest to the root, else the first .py file' }),
    ),
  },
  { additionalProperties: false },
);
export type SnapshotUpload = Static<typeof SnapshotBody>;

export const CodeState = Type.Object(
  {
    worktree_hash: Type.String(),
    entry_path: Type.String(),
    size_bytes: Type.Integer({ description: "The files' total size, uncompressed" }),
    file_count: Type.Integer(),
    created_at: DateTime({ description: 'When this snapshot was first uploaded' }),
  },
  { $id: 'CodeState' },
);

export const CodeSummary = Type.Object(
  {
    synced: Type.Boolean({ description: 'Whether the macro has a snapshot' }),
    // The current snapshot as code-state answers it; null when never synced.
    state: Nullable(CodeState),
  },
  { $id: 'CodeSummary' },
);

const Warning = Type.Object(
  {
    code: StringEnum(SNAPSHOT_WARNING_CODES),
    message: Type.String(),
    path: Type.Optional(Type.String()),
    line: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { $id: 'CodeSnapshotWarning' },
);
export type SnapshotWarning = Static<typeof Warning>;

export const SnapshotAnswer = Type.Object(
  {
    worktree_hash: Type.String(),
    entry_path: Type.String(),
    entry_kind: StringEnum(['python'] as const),
    image_ids: Type.Array(Type.String(), { description: 'Image-library ids found in string literals of .py files, in order of first appearance' }),
    warnings: Type.Array(Warning),
    size_bytes: Type.Integer({ description: "The files' total size, uncompressed" }),
    file_count: Type.Integer(),
    created: Type.Boolean({ description: 'false when the macro already had a snapshot with this hash; it is current again' }),
  },
  { $id: 'CodeSnapshotUpload' },
);
export type SnapshotUploadAnswer = Static<typeof SnapshotAnswer>;
