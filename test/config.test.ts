// Settings are validated once; a bad value stops start-up with a message naming it.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, ensureSecretKey, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  test('defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      baseUrl: 'http://localhost:8080',
      databaseUrl: undefined,
      redisUrl: undefined,
      adminToken: undefined,
      logLevel: 'info',
      rateLimitPerKey: 120,
      rateLimitPerAccount: 300,
    });
    expect(config.dataDir).toMatch(/data$/);
    expect(loadConfig({ PORT: '9000' }).baseUrl).toBe('http://localhost:9000');
  });

  test.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ BASE_URL: 'localhost:8080' }, 'BASE_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SECRET_KEY: 'too-short' }, 'SECRET_KEY'],
    [{ REDIS_URL: 'http://localhost' }, 'REDIS_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ RATE_LIMIT_PER_KEY: '0' }, 'RATE_LIMIT_PER_KEY'],
    [{ RATE_LIMIT_PER_ACCOUNT: '-5' }, 'RATE_LIMIT_PER_ACCOUNT'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
    [{ SIM_EXTRA_APPS: 'field-guide,chess' }, 'SIM_EXTRA_APPS'],
  ])('%j is refused, naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  test('SIM_EXTRA_APPS: none by default; field-guide once however often it is named', () => {
    expect(loadConfig({}).simExtraApps).toEqual([]);
    expect(loadConfig({ SIM_EXTRA_APPS: ' field-guide, field-guide ' }).simExtraApps).toEqual(['field-guide']);
  });

  test('SECRET_KEY accepts 32 bytes as hex or base64', () => {
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ SECRET_KEY: hex }).secretKey?.toString('hex')).toBe(hex);
    const b64 = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ SECRET_KEY: b64 }).secretKey).toEqual(Buffer.alloc(32, 7));
    expect(() => loadConfig({ SECRET_KEY: Buffer.alloc(31).toString('base64') })).toThrow('SECRET_KEY');
  });

  test('with DATABASE_URL a SECRET_KEY is required to serve (not to migrate)', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://localhost/db' });
    expect(() => ensureSecretKey(config)).toThrow(ConfigError);
    expect(() => ensureSecretKey(config)).toThrow('SECRET_KEY');
    expect(ensureSecretKey(loadConfig({ DATABASE_URL: 'postgres://localhost/db', SECRET_KEY: 'ab'.repeat(32) })).length).toBe(32);
  });

  test('on the embedded default the secret key is generated into DATA_DIR once and kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
    const first = ensureSecretKey(loadConfig({ DATA_DIR: dir }));
    const file = join(dir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('hex'));
    expect(ensureSecretKey(loadConfig({ DATA_DIR: dir }))).toEqual(first);
  });

  test('the process refuses to start with a bad setting and names it', async () => {
    const { execFile } = await import('node:child_process');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile('node', ['dist/main.js', 'serve'], { env: { ...process.env, PORT: 'abc' } }, (error, _stdout, stderr) =>
        resolve({ code: error ? (error as { code: number }).code : 0, stderr }),
      ),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Invalid setting PORT');
  });
});
