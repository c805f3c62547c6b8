// A run's trace as GET /api/executions/{execution_id}/trace answers it (decisions.md §17).
import type { ResponseOf } from '../../api/types';

export type Trace = ResponseOf<'/api/executions/{execution_id}/trace', 'get'>;
export type TraceStep = Trace['steps'][number];
