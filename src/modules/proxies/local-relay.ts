// The local relay of the relay recipe (decisions.md §6): an unauthenticated HTTP proxy on
// 127.0.0.1 that forwards every request (and CONNECT tunnel) to the assigned proxy with its
// credentials, so a device whose proxy setting takes no credentials can use it. proxy-chain's
// anonymizeProxy runs it; for an upstream without credentials (a SOCKS5 or HTTPS proxy, which
// anonymizeProxy hands back unchanged) a proxy-chain Server does the same forwarding.
// proxy-chain writes nothing to the console unless made verbose, so no upstream URL (and no
// password) is ever logged; errors leave here with the password masked.
import { anonymizeProxy, closeAnonymizedProxy, redactUrl, Server } from 'proxy-chain';
import { messageOf } from '../../lib/error-message.js';

export interface LocalRelay {
  /** `http://127.0.0.1:P`, no credentials. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and cuts the connections still open. */
  close(): Promise<void>;
}

/** What went wrong, with the upstream's credentials masked wherever the message quotes them. */
function describe(error: unknown, upstreamUrl: string, port: number): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'EADDRINUSE') return `port ${port} on 127.0.0.1 is already in use`;
  if (code === 'EACCES') return `port ${port} on 127.0.0.1 may not be used by this process`;
  let message = messageOf(error).split(upstreamUrl).join(redactUrl(upstreamUrl));
  let password = '';
  try {
    password = new URL(upstreamUrl).password;
  } catch {
    // Not a URL: nothing of it was parsed, so nothing to mask but the whole (done above).
  }
  for (const secret of new Set([password, decodeURIComponent(password)])) {
    if (secret) message = message.split(secret).join('********');
  }
  return message;
}

/** Starts the relay on 127.0.0.1:`port`, forwarding to `upstreamUrl` (`scheme://user:password@host:port`). */
export async function openLocalRelay(upstreamUrl: string, port: number): Promise<LocalRelay> {
  try {
    const url = await anonymizeProxy({ url: upstreamUrl, port });
    if (url !== upstreamUrl) return { url, port, close: async () => void (await closeAnonymizedProxy(url, true)) };
    const server = new Server({ host: '127.0.0.1', port, prepareRequestFunction: () => ({ requestAuthentication: false, upstreamProxyUrl: upstreamUrl }) });
    await server.listen();
    return { url: `http://127.0.0.1:${port}`, port, close: () => server.close(true) };
  } catch (error) {
    throw new Error(describe(error, upstreamUrl, port));
  }
}
