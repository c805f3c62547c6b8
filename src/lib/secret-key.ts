// The service's secret key: SECRET_KEY's value, or on the embedded default the key file in
// DATA_DIR, made on first start and kept for good (stored secrets are unreadable without it).
// The file and DATA_DIR are for the service's user alone: a cloud run runs as another user
// (RUN_AS_USER) and must not read them (docs/runs.md, "What a run can reach").
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error.js';
import { makePrivateFile, makePrivateFolder } from './private-files.js';

/** Accepts 32 bytes written as 64 hex characters or as base64. */
export function parseSecretKey(raw: string, name = 'SECRET_KEY'): Buffer {
  const trimmed = raw.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (bytes.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(trimmed) && bytes.toString('base64').replace(/=+$/, '') !== trimmed.replace(/=+$/, ''))) {
    throw new ConfigError(name, 'must be 32 bytes written as 64 hex characters or as base64');
  }
  return bytes;
}

/** The key in DATA_DIR/secret.key, made when missing; the folder ends 0700 and the file 0600 (an older install may have left them open). */
export function keyFileIn(dataDir: string): Buffer {
  makePrivateFolder(dataDir);
  const file = join(dataDir, 'secret.key');
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  makePrivateFile(file);
  return parseSecretKey(readFileSync(file, 'utf8'), `SECRET_KEY (the file ${file})`);
}
