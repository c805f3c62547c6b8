import { type Static, Type } from 'typebox';
import { ExecutionIdString } from '../executions/index.js';

export const MAX_LINES_DEFAULT = 200;
export const MAX_LINES_MAX = 1000;

export const RunLogParams = Type.Object({ execution_id: ExecutionIdString });

export const RunLogQuery = Type.Object(
  {
    max_lines: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_LINES_MAX, default: MAX_LINES_DEFAULT, description: 'At most this many lines, 1 to 1000 (default 200)' }),
    ),
    since_seq: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2_147_483_647,
        default: 0,
        description: 'Cursor: the last_seq of a previous read. 0 or absent: the newest max_lines lines. N: whole batches after batch N, oldest first, at least one even if it holds more than max_lines',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RunLogInput = Static<typeof RunLogParams> & Static<typeof RunLogQuery>;

export const RunLog = Type.Object(
  {
    execution_id: Type.String(),
    lines: Type.Array(Type.String(), { description: 'Oldest first' }),
    last_seq: Type.Integer({ description: 'Pass back as since_seq to read only newer lines; 0 when the run has no logs' }),
  },
  { $id: 'RunLog' },
);
