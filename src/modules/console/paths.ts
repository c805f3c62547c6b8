// Which request paths belong to the API (and so never get the console's index.html), and
// which files are long-lived. Everything else under `/` is the console's.

/** The API's prefixes: a path equal to one, or below it, is the API's. */
const API_PREFIXES = ['/api', '/admin', '/docs', '/healthz', '/readyz', '/metrics', '/mcp', '/.well-known'];

export function isApiPath(pathname: string): boolean {
  if (pathname.startsWith('/openapi.')) return true;
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/**
 * Vite names every file under assets/ by a hash of its content, so a name never changes
 * meaning: it may be cached for a year. Everything else (index.html, favicon.svg) must be
 * revalidated, or a browser keeps loading an old index.html that names deleted assets.
 */
export function cacheControlFor(filePath: string): string {
  return /[\\/]assets[\\/]/.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * A path inside the console's folder as a relative file name, or null when it cannot name a
 * console file: traversal, dot segments, backslashes, the precompressed twins (.br/.gz are
 * sent only through content negotiation).
 */
export function consoleFileName(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\\') || decoded.includes('\0')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return null;
  if (segments.some((segment) => segment.startsWith('.'))) return null;
  const name = segments.join('/');
  if (/\.(br|gz)$/.test(name)) return null;
  return name;
}

/** A navigation from a browser asks for HTML; a script or image fetch does not. */
export function acceptsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/html\b/i.test(accept);
}
