// Serves the web console (built from web/ into dist/console) at `/`: hashed assets cached
// for a year, index.html revalidated on every load, precompressed .br/.gz copies when the
// browser accepts them, and index.html for any other browser navigation outside the API's
// paths so /macros/12 opens the console there. Unknown API paths still get the API's 404.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { PACKAGE_ROOT } from '../../lib/package-root.js';
import { NOT_BUILT_HTML } from './not-built.js';
import { acceptsHtml, cacheControlFor, consoleFileName, isApiPath } from './paths.js';

/** dist/console under the project's root, for the compiled service, its bundle and the tests that run the sources. */
export const DEFAULT_CONSOLE_ROOT = `${join(PACKAGE_ROOT, 'dist', 'console')}/`;

export interface ConsoleOptions {
  /** The folder holding index.html and assets/; tests point it elsewhere. */
  root?: string;
}

/** The console's page may load only its own scripts and talk only to its own origin. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine sets CSS variables through style attributes and one <style> element.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

export function consoleRoutes(options: ConsoleOptions = {}): FastifyPluginAsync {
  const root = options.root ?? DEFAULT_CONSOLE_ROOT;
  return async (app) => {
    await app.register(fastifyStatic, {
      root,
      serve: false,
      preCompressed: true,
      cacheControl: false,
      index: false,
      dotfiles: 'deny',
      setHeaders(res, filePath) {
        res.setHeader('cache-control', cacheControlFor(filePath));
        res.setHeader('vary', 'accept-encoding');
        res.setHeader('x-content-type-options', 'nosniff');
        if (/index\.html(\.br|\.gz)?$/.test(filePath)) {
          res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
          res.setHeader('referrer-policy', 'same-origin');
        }
      },
    });

    const sendIndex = async (reply: FastifyReply) => {
      if (await isFile(join(root, 'index.html'))) return reply.sendFile('index.html');
      return reply.code(200).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_BUILT_HTML);
    };

    app.route({
      method: ['GET', 'HEAD'],
      url: '/*',
      schema: { hide: true },
      handler: async (request, reply) => {
        const pathname = request.url.split('?')[0];
        if (isApiPath(pathname)) return reply.callNotFound();
        if (pathname === '/') return sendIndex(reply);
        const name = consoleFileName(pathname);
        if (name !== null && (await isFile(join(root, name)))) return reply.sendFile(name);
        if (acceptsHtml(request.headers.accept)) return sendIndex(reply);
        return reply.callNotFound();
      },
    });
  };
}
