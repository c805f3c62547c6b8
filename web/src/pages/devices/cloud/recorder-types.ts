// The recorder's records (decisions.md §18), as the generated schema names them: a recording,
// its steps, an input, a save's kind, and the part of the saved macro the recorder keeps.
import type { components } from '../../../api/schema';
import type { BodyOf, Macro, ResponseOf } from '../../../api/types';

export type Recording = ResponseOf<'/api/hosted/recordings/{rid}', 'get'>;
export type RecordedStep = components['schemas']['RecordedStep'];
export type RecorderInput = BodyOf<'/api/hosted/recordings/{rid}/inputs', 'post'>;
export type RecorderKey = Extract<RecorderInput, { type: 'key' }>['key'];
export type SaveKind = BodyOf<'/api/hosted/recordings/{rid}/save', 'post'>['kind'];
export type SavedMacro = Pick<Macro, 'id' | 'name' | 'kind'>;
