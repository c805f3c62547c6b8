// The recorder's routes (decisions.md §18; docs/recorder.md): start, read and restore a
// device's recording, send inputs and checks, edit and delete steps, save as a macro, stop,
// replay. Session-only routes: every call goes with the session cookie.
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import type { Recording, RecorderInput, SaveKind } from './recorder-types';

const rec = (rid: string) => ({ params: { path: { rid } } });
const step = (rid: string, seq: number) => ({ params: { path: { rid, seq } } });

export const startRecording = (deviceId: number) => unwrap(api.POST('/api/hosted/devices/{id}/recording', { params: { path: { id: deviceId } } }));
export const getRecording = (rid: string) => unwrap(api.GET('/api/hosted/recordings/{rid}', rec(rid)));
export const sendInput = (rid: string, body: RecorderInput) => unwrap(api.POST('/api/hosted/recordings/{rid}/inputs', { ...rec(rid), body })).then((a) => a.step);
export const addCheck = (rid: string, x: number, y: number) => unwrap(api.POST('/api/hosted/recordings/{rid}/checks', { ...rec(rid), body: { x, y } })).then((a) => a.step);
export const stepCandidates = (rid: string, seq: number) => unwrap(api.GET('/api/hosted/recordings/{rid}/steps/{seq}/candidates', step(rid, seq))).then((a) => a.items);
export const chooseCandidate = (rid: string, seq: number, chosen: number) => unwrap(api.PATCH('/api/hosted/recordings/{rid}/steps/{seq}', { ...step(rid, seq), body: { chosen } })).then((a) => a.step);
export const deleteStep = (rid: string, seq: number) => unwrap(api.DELETE('/api/hosted/recordings/{rid}/steps/{seq}', step(rid, seq)));
export const saveRecording = (rid: string, name: string, kind: SaveKind) => unwrap(api.POST('/api/hosted/recordings/{rid}/save', { ...rec(rid), body: { name, kind } }));
export const stopRecording = (rid: string) => unwrap(api.POST('/api/hosted/recordings/{rid}/stop', rec(rid)));
export const replayRecording = (rid: string, macroId: number) => unwrap(api.POST('/api/hosted/recordings/{rid}/replay', { ...rec(rid), body: { macro_id: macroId } }));

/** The device's recording in progress, or null when there is none. */
export async function activeRecording(deviceId: number): Promise<Recording | null> {
  return (await unwrap(api.GET('/api/hosted/devices/{id}/recording', { params: { path: { id: deviceId } } }))).recording;
}
