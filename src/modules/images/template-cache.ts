// Library images decoded once: a template is read from the database and decoded to gray the
// first time it is matched, then kept by the SHA-256 of its bytes. Each lookup still asks the
// database for the id's fingerprint (one indexed row, no bytes), so a deleted image is
// refused at once in every process, and the bytes are never read again while cached.
import { decodeGray, type GrayImage } from '../vision/index.js';
import type { ImageLibrary, LibraryOwner } from './library.js';

/** Gray templates are width × height bytes; a 5 MiB PNG may hold up to 16.7 MB of them. */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;

export class TemplateCache {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, GrayImage>();
  private bytes = 0;

  constructor(private readonly library: Pick<ImageLibrary, 'fingerprint' | 'content'>) {}

  async get(owner: LibraryOwner, id: string): Promise<GrayImage> {
    const sha = await this.library.fingerprint(owner, id);
    const hit = this.entries.get(sha);
    if (hit) {
      this.entries.delete(sha);
      this.entries.set(sha, hit);
      return hit;
    }
    const { bytes } = await this.library.content(owner, id);
    const gray = await decodeGray(bytes, 'template');
    this.remember(sha, gray);
    return gray;
  }

  private remember(sha: string, gray: GrayImage): void {
    if (gray.data.length > MAX_CACHED_BYTES / 4) return;
    this.entries.set(sha, gray);
    this.bytes += gray.data.length;
    for (const [key, value] of this.entries) {
      if (this.bytes <= MAX_CACHED_BYTES) break;
      this.entries.delete(key);
      this.bytes -= value.data.length;
    }
  }
}
