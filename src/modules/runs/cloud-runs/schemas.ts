// The cloud-run routes' schemas: one schema per route serves validation, types and OpenAPI.
import { type Static, Type } from 'typebox';
import { DateTime, Id, StringEnum } from '../../../core/schema.js';
import { CLOUD_RUN_STATES } from '../../../core/values.js';

export const CloudRun = Type.Object(
  {
    id: Type.Integer(),
    execution_id: Type.String({ description: '`cr_` + 24 lowercase hex; the run history record has the same' }),
    device_id: Type.Integer(),
    macro_id: Type.Integer(),
    state: StringEnum(CLOUD_RUN_STATES),
    state_message: Type.Optional(Type.String({ description: 'Why the run is in its state: a launch failure, "worker lost", a limit passed, "stopped on request"' })),
    started_at: Type.Optional(DateTime({ description: 'When the macro started running' })),
    finished_at: Type.Optional(DateTime()),
    bundle_sha: Type.String({ description: 'SHA-256 hex of exactly what runs: the snapshot zip, or the block program as canonical JSON' }),
    code_ref: Type.Optional(Type.String({ description: "The code snapshot's worktree_hash (code macros only)" })),
  },
  { $id: 'CloudRun' },
);

/** A cloud run's `execution_id`: `cr_` + 24 lowercase hex (decisions.md §10). */
export const CLOUD_EXECUTION_ID = /^cr_[0-9a-f]{24}$/;

/**
 * How the run routes name a run: its numeric id, or (our extension) its `execution_id`, which
 * is all a run history record carries. Anything else fails validation (422), as a malformed
 * numeric id always has. A local run's execution_id never has this form: reports may not use `cr_`.
 */
export const CloudRunRef = Type.Union([Id('The cloud run id'), Type.String({ pattern: CLOUD_EXECUTION_ID.source, description: "The run's execution_id (`cr_` + 24 lowercase hex)" })], {
  description: 'One of your cloud runs: its numeric id, or its execution_id (`cr_` + 24 lowercase hex), as the run history shows it',
});
export const CloudRunParams = Type.Object({ id: CloudRunRef });
export type CloudRunRefInput = Static<typeof CloudRunRef>;
export type CloudRunParamsInput = Static<typeof CloudRunParams>;

export const StartRunBody = Type.Object(
  {
    macro_id: Id('One of your macros'),
    args: Type.Optional(
      Type.Object(
        { __cli_args__: Type.Optional(Type.String({ description: 'The whole command line, split as a POSIX shell would (no expansions)' })) },
        { additionalProperties: true, description: "Arguments for this run only, laid over the device's settings profile key by key" },
      ),
    ),
  },
  { additionalProperties: false },
);
/**
 * A run's start, as every caller hands it in (the route, the tool server, the scheduler, the
 * authoring agent, the recorder): the route's body and its device. `under_lease`: the caller's
 * own live lease on the device, which then does not make it busy (an authoring session's or a
 * recording's runs).
 */
export type StartRunInput = Static<typeof StartRunBody> & { device_id: number; under_lease?: string };
