// The cloud device section's routes (/api/hosted/…): its lifecycle, the live view and tap,
// screenshots as blobs (the typed client parses JSON), the device's screen size, its apps and
// an APK upload with progress (fetch has no upload progress; XMLHttpRequest does), and
// starting a run. Every call goes with the session cookie.
import { api } from '../../../api/client';
import { ApiError, unwrap } from '../../../api/errors';
import type { BodyOf } from '../../../api/types';

const at = (id: number) => ({ params: { path: { id } } });
export const startDevice = (id: number) => unwrap(api.POST('/api/hosted/devices/{id}/start', at(id)));
export const stopDevice = (id: number) => unwrap(api.POST('/api/hosted/devices/{id}/stop', at(id)));
export const deleteCloudDevice = (id: number) => unwrap(api.DELETE('/api/hosted/devices/{id}', at(id)));
export const tap = (id: number, x: number, y: number) => unwrap(api.POST('/api/hosted/devices/{id}/tap', { ...at(id), body: { x, y } }));
export const listApps = (id: number) => unwrap(api.GET('/api/hosted/devices/{id}/apps', at(id))).then((answer) => answer.items);
export const startRun = (id: number, body: BodyOf<'/api/hosted/devices/{id}/run', 'post'>) => unwrap(api.POST('/api/hosted/devices/{id}/run', { ...at(id), body }));

export const liveUrl = (id: number, fps = 4) => `/api/hosted/devices/${id}/live?fps=${fps}`;

/** A screenshot as a blob (PNG at full size unless asked otherwise). */
export async function screenshotBlob(id: number, query: { format?: 'png' | 'jpeg'; max_edge?: number } = {}): Promise<Blob> {
  return unwrap(api.GET('/api/hosted/devices/{id}/screenshot', { params: { path: { id }, query }, parseAs: 'blob' })) as Promise<Blob>;
}

/** The device's screen in device pixels: the natural size of a full-size screenshot. */
export async function screenSize(id: number): Promise<{ width: number; height: number }> {
  const bitmap = await createImageBitmap(await screenshotBlob(id, { format: 'jpeg' }));
  const size = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return size;
}

function apiErrorOf(xhr: XMLHttpRequest): ApiError {
  try {
    const body = JSON.parse(xhr.responseText) as { message?: string; details?: { code?: string } };
    if (typeof body.message === 'string') return new ApiError(xhr.status, body.details?.code ?? 'error', body.message);
  } catch {
    // not JSON: fall through to the generic sentence
  }
  return new ApiError(xhr.status, 'unexpected_response', `The service answered ${xhr.status} without an explanation. Try again in a moment.`);
}

export interface InstalledApk {
  package: string;
  label: string;
  version_name: string;
  version_code: number;
}

/** Sends the APK as the raw body; `onProgress` gets 0..1 as the bytes leave. */
export function uploadApk(id: number, file: File, onProgress: (fraction: number) => void): Promise<InstalledApk> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/hosted/devices/${id}/apks`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', 'application/vnd.android.package-archive');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status === 201) resolve(JSON.parse(xhr.responseText) as InstalledApk);
      else reject(apiErrorOf(xhr));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'The service could not be reached. Check your connection and try again.'));
    xhr.send(file);
  });
}
