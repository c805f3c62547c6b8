// An APK arrives as a path or as a stream (an HTTP upload). The manifest reader and the ADB
// push both want a file, so a stream is spooled to a private temporary directory (never
// held whole in memory) and removed afterwards, whatever happens.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ApkSource } from '../types.js';

export async function withApkFile<T>(source: ApkSource, use: (file: string) => Promise<T>): Promise<T> {
  if (typeof source === 'string') return use(source);
  const dir = await mkdtemp(join(tmpdir(), 'svc-apk-'));
  try {
    const file = join(dir, 'upload.apk');
    await pipeline(source, createWriteStream(file, { mode: 0o600 }));
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
