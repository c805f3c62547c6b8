// The console module's file serving, on a fixture folder: caching, precompressed copies,
// the SPA fallback, the API's paths kept out of it, traversal refused, and the page shown
// when the console has not been built. The real app's routes around it are checked too.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { consoleRoutes } from '../../src/modules/console/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-3f2a9c.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

let dir: string;
let emptyDir: string;
let app: FastifyInstance;
let bare: FastifyInstance;

async function consoleApp(root: string): Promise<FastifyInstance> {
  const instance = Fastify({ exposeHeadRoutes: false });
  installErrorHandling(instance);
  await instance.register(consoleRoutes({ root }));
  await instance.ready();
  return instance;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'index.html.gz'), gzipSync(INDEX));
  writeFileSync(join(dir, 'assets/app-3f2a9c.js'), SCRIPT);
  writeFileSync(join(dir, 'assets/app-3f2a9c.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(dir, 'assets/app-3f2a9c.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, '.secret'), 'not for the web');
  emptyDir = mkdtempSync(join(tmpdir(), 'console-empty-'));
  app = await consoleApp(dir);
  bare = await consoleApp(emptyDir);
});

afterAll(async () => {
  await app.close();
  await bare.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
});

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the console files', () => {
  test('/ answers index.html, revalidated on every load, with a content security policy', async () => {
    const res = await app.inject({ url: '/', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toBe(INDEX);
  });

  test('hashed assets are cached for a year and immutable', async () => {
    const res = await app.inject({ url: '/assets/app-3f2a9c.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe(SCRIPT);
  });

  test('the precompressed copy is sent to a browser that accepts it, and the response varies on it', async () => {
    const br = await app.inject({ url: '/assets/app-3f2a9c.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
    const gz = await app.inject({ url: '/assets/app-3f2a9c.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gzipSync(SCRIPT).equals(gz.rawPayload)).toBe(true);
    const index = await app.inject({ url: '/', headers: { ...HTML, 'accept-encoding': 'gzip' } });
    expect([index.headers['content-encoding'], index.headers['cache-control']]).toEqual(['gzip', 'no-cache']);
  });

  test('an unchanged file answers 304 to a conditional request', async () => {
    const first = await app.inject({ url: '/favicon.svg' });
    expect(first.headers.etag).toBeTruthy();
    const again = await app.inject({ url: '/favicon.svg', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  test('HEAD / answers the headers without a body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/', headers: HTML });
    expect([res.statusCode, res.body]).toEqual([200, '']);
  });
});

describe('the single-page fallback', () => {
  test('a browser navigation to a console path gets index.html', async () => {
    for (const url of ['/macros/12', '/keys?page=2', '/webhooks/deliveries/5']) {
      const res = await app.inject({ url, headers: HTML });
      expect([url, res.statusCode, res.body, res.headers['cache-control']]).toEqual([url, 200, INDEX, 'no-cache']);
    }
  });

  test('a request that does not ask for HTML gets the 404 envelope', async () => {
    const res = await app.inject({ url: '/assets/missing-123.js', headers: { accept: '*/*' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().details.code).toBe('not_found');
  });

  test("the API's paths never get index.html, even from a browser", async () => {
    for (const url of ['/api', '/api/nothing-here', '/admin/x', '/docs/nope', '/openapi.txt', '/healthz/x', '/readyz/x', '/metrics/x', '/mcp', '/.well-known/security.txt']) {
      const res = await app.inject({ url, headers: HTML });
      expect([url, res.statusCode, res.json().details.code]).toEqual([url, 404, 'not_found']);
    }
  });

  test('dot files, traversal and the compressed twins are not served', async () => {
    for (const url of ['/.secret', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f.secret', '/index.html.gz', '/assets/app-3f2a9c.js.br', '/assets%5c..%5c.secret']) {
      const res = await app.inject({ url, headers: { accept: '*/*' } });
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.body).not.toContain('not for the web');
    }
    const browser = await app.inject({ url: '/.secret', headers: HTML });
    expect(browser.body).toBe(INDEX);
  });
});

describe('before the console is built', () => {
  test('/ answers a short page that says how to build it', async () => {
    const res = await bare.inject({ url: '/', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('npm run build:web');
    const deep = await bare.inject({ url: '/macros/3', headers: HTML });
    expect(deep.body).toContain('The console has not been built');
  });
});

describe('inside the real app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test('the API routes, the docs and the description keep answering as before', async () => {
    expect((await t.app.inject({ url: '/healthz', headers: HTML })).json()).toMatchObject({ status: 'ok' });
    expect((await t.app.inject({ url: '/openapi.json', headers: HTML })).json().openapi).toBe('3.1.0');
    expect((await t.app.inject({ url: '/docs', headers: HTML })).statusCode).toBe(200);
    const unknown = await t.app.inject({ url: '/api/nothing-here', headers: HTML });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'No route GET /api/nothing-here.', details: { code: 'not_found' } }]);
  });

  test('/ answers HTML (the console, or the page saying how to build it)', async () => {
    const res = await t.app.inject({ url: '/', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<div id="root">|npm run build:web/);
  });
});
