// The image library: a page of images (name filter, paging), one upload (the file as base64;
// the service reads its size and type), a delete, a crop of a cloud device's screen (our
// extension, POST /api/images/crop), and the URL of a picture's bytes for <img src> (same
// origin, so the session cookie goes with it). Every call goes with the session cookie.
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { BodyOf, QueryOf, ResponseOf } from '../../api/types';
import { toBase64 } from '../../lib/zip-tree';

export type LibraryImage = ResponseOf<'/api/images/{id}', 'get'>;

export const listImages = (query: QueryOf<'/api/images', 'get'> = {}) => unwrap(api.GET('/api/images', { params: { query } }));
export const deleteImage = (id: string) => unwrap(api.DELETE('/api/images/{id}', { params: { path: { id } } }));
export const cropImage = (body: BodyOf<'/api/images/crop', 'post'>) => unwrap(api.POST('/api/images/crop', { body }));

/** The service's limit on the picture itself (app-api.md "Image library"). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg'];

export class ImageFileError extends Error {}

/** Uploads a PNG or JPEG file; a file over 5 MiB is refused here, before 7 MiB of base64 leave. */
export async function uploadImage(name: string, file: File): Promise<LibraryImage> {
  if (file.size > IMAGE_MAX_BYTES) throw new ImageFileError(`This file is ${(file.size / 1024 / 1024).toFixed(1)} MiB; the image library takes pictures up to 5 MiB.`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  return unwrap(api.POST('/api/images', { body: { name, image_base64: toBase64(bytes) } }));
}

export const contentUrl = (id: string) => `/api/images/${id}/content`;
