// The recorder's routes (decisions.md §18; the contract in docs/recorder.md): start, read and
// restore a device's recording, send inputs and checks, edit and delete steps, save as a
// macro, stop, replay. Session-only routes: every call goes with the session cookie.
import { ApiError, unwrap } from '../../../api/errors';
import type { CandidateNow, Recording, RecordedStep, RecorderInput, ReplayRun, SavedMacro, SaveKind } from './recorder-types';

/** A same-origin JSON call, answered as the typed client answers, so `unwrap` gives the data or the API's error. */
function call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const sent = fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (response) => {
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    return response.ok ? { response, data: parsed as T } : { response, error: parsed };
  });
  return unwrap<T>(sent);
}

const rec = (rid: string) => `/api/hosted/recordings/${encodeURIComponent(rid)}`;
const step = (rid: string, seq: number) => `${rec(rid)}/steps/${seq}`;

export const startRecording = (deviceId: number) => call<Recording>('POST', `/api/hosted/devices/${deviceId}/recording`, {});
export const getRecording = (rid: string) => call<Recording>('GET', rec(rid));
export const sendInput = (rid: string, input: RecorderInput) => call<{ step: RecordedStep }>('POST', `${rec(rid)}/inputs`, input).then((a) => a.step);
export const addCheck = (rid: string, x: number, y: number) => call<{ step: RecordedStep }>('POST', `${rec(rid)}/checks`, { x, y }).then((a) => a.step);
export const stepCandidates = (rid: string, seq: number) => call<{ items: CandidateNow[] }>('GET', `${step(rid, seq)}/candidates`).then((a) => a.items);
export const chooseCandidate = (rid: string, seq: number, chosen: number) => call<{ step: RecordedStep }>('PATCH', step(rid, seq), { chosen }).then((a) => a.step);
export const deleteStep = (rid: string, seq: number) => call<undefined>('DELETE', step(rid, seq));
export const saveRecording = (rid: string, name: string, kind: SaveKind) => call<SavedMacro>('POST', `${rec(rid)}/save`, { name, kind });
export const stopRecording = (rid: string) => call<Recording>('POST', `${rec(rid)}/stop`);
export const replayRecording = (rid: string, macroId: number) => call<ReplayRun>('POST', `${rec(rid)}/replay`, { macro_id: macroId });

/** The device's recording in progress, or null when there is none (404). */
export async function activeRecording(deviceId: number): Promise<Recording | null> {
  try {
    return await call<Recording>('GET', `/api/hosted/devices/${deviceId}/recording`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
