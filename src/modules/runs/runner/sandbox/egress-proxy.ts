// The run's way to the internet (decisions.md §10): an HTTP proxy (plain requests and CONNECT
// tunnels, proxy-chain's) on a Unix socket that socat carries to 127.0.0.1:3128 inside the
// sandbox, where HTTP_PROXY, HTTPS_PROXY and ALL_PROXY point. It resolves names itself,
// refuses what egress-policy.ts refuses (403, before connecting anywhere) and connects to the
// address it checked. With a proxy assigned to the device, every request is chained to it
// instead, unchecked here: the assigned proxy resolves and connects from where it is, its exit
// carries the macro's traffic, and its credentials never enter the sandbox.
import type { LookupAddress, LookupOneOptions } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import { RequestError, Server } from 'proxy-chain';
import { AddressRefusedError, type AddressPolicy } from '../../../../lib/address-policy.js';
import { vetEgressHost } from './egress-policy.js';
import { type Listening, listenOnSocket } from './unix-server.js';

export interface EgressOptions {
  /** The device's assigned proxy (`http://user:pass@host:port`, `socks5://…`), or none. */
  upstreamUrl?: string;
  policy: AddressPolicy;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A dns.lookup that answers the vetted address and never asks the resolver again. */
function pinnedLookup(address: string) {
  const family = isIP(address);
  return (_host: string, options: LookupOneOptions | LookupCallback, callback?: LookupCallback) => {
    const done = (typeof options === 'function' ? options : callback) as LookupCallback;
    if (typeof options === 'object' && (options as { all?: boolean }).all) done(null, [{ address, family }]);
    else done(null, address, family);
  };
}

export async function openEgressProxy(socketPath: string, options: EgressOptions, owner: { uid: number; gid: number } | null): Promise<Listening> {
  const proxy = new Server({
    port: 0,
    prepareRequestFunction: async ({ hostname }) => {
      if (options.upstreamUrl) return { requestAuthentication: false, upstreamProxyUrl: options.upstreamUrl };
      try {
        const address = await vetEgressHost(hostname, options.policy);
        return { requestAuthentication: false, dnsLookup: pinnedLookup(address) as never };
      } catch (error) {
        if (error instanceof AddressRefusedError) throw new RequestError(`refused by the run's egress policy: ${error.message}`, 403);
        throw error;
      }
    },
  });
  // proxy-chain drops a connection without a remote address (its guard for nodejs/node#23858),
  // and a Unix socket's never has one: name the peer before proxy-chain's listener looks.
  proxy.server.prependListener('connection', (socket: Socket) => {
    if (!socket.remoteAddress) Object.defineProperty(socket, 'remoteAddress', { value: 'run-sandbox' });
  });
  const listening = await listenOnSocket(proxy.server, socketPath, owner);
  return {
    close: async () => {
      await proxy.close(true).catch(() => undefined);
      await listening.close();
    },
  };
}
