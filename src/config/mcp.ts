// The mcp module's setting, composed by config.ts with the rest: MCP_ALLOWED_ORIGINS, the
// browser origins, besides BASE_URL's own, whose requests the tool server at /mcp accepts (the
// transport specification's DNS-rebinding rule; src/modules/mcp/origin-guard.ts).
import { ConfigError } from '../lib/config-error.js';
import type { Env } from '../lib/env-settings.js';

/** Comma-separated `scheme://host[:port]` origins, normalised as browsers send them (lower case, no default port). */
export function mcpAllowedOrigins(env: Env): string[] {
  const raw = (env.MCP_ALLOWED_ORIGINS ?? '').trim();
  if (raw === '') return [];
  const origins = raw.split(',').map((part) => {
    const entry = part.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(entry);
    } catch {
      parsed = undefined;
    }
    const bare = parsed !== undefined && ['http:', 'https:'].includes(parsed.protocol) && !parsed.username && !parsed.password && parsed.search === '' && parsed.hash === '';
    if (!parsed || !bare || !/^[a-z][a-z0-9+.-]*:\/\/[^/]+\/?$/i.test(entry)) {
      throw new ConfigError('MCP_ALLOWED_ORIGINS', `"${entry.slice(0, 100)}" is not an origin: write scheme://host[:port], such as http://localhost:6274, with no path`);
    }
    return parsed.origin;
  });
  return [...new Set(origins)];
}
