// Argument and result pieces the tools share. Records the REST routes also answer (the macro,
// the code state, the run log) come from their modules' TypeBox schemas, so a tool and its
// route describe a record once.
import { Type } from 'typebox';
import { Id, Nullable, StringEnum } from '../../../core/schema.js';
import { CodeState } from '../../code-sync/index.js';
import { Device } from '../../devices/index.js';
import { Macro } from '../../macros/index.js';

export const LeaseId = Type.String({ pattern: '^lease_[0-9a-f]{24}$', description: 'The lease_id device_lease answered' });
export const DeviceId = Id('A cloud device id, from device_list');
export const MacroId = Id('A macro id, from macro_list');
export const Coordinate = Type.Integer({ minimum: 0, maximum: 100_000, description: 'Device pixels' });
export const Point = Type.Object({ x: Coordinate, y: Coordinate }, { additionalProperties: false });
export const RunArgs = Type.Record(Type.String(), Type.Unknown(), { description: "Arguments laid over the profile's, key by key" });

export const Bounds = Type.Object({ left: Type.Integer(), top: Type.Integer(), right: Type.Integer(), bottom: Type.Integer() });
export const Center = Type.Object({ x: Type.Integer(), y: Type.Integer() });

/** The macro record of the REST routes, with a code macro's code state (null: never synced). */
export const MacroWithCode = Type.Object({
  ...Macro.properties,
  code: Type.Optional(Nullable(CodeState)),
});

/** A cloud device for tool clients: the REST device record, and who holds a live lease on it. */
export const CloudDeviceItem = Type.Object({
  ...Device.properties,
  lease_holder: Type.Optional(StringEnum(['self', 'other'] as const, { description: 'Who holds a live lease: you (this key), someone else; absent when nobody does' })),
});

export const NoArguments = Type.Object({}, { additionalProperties: false });
